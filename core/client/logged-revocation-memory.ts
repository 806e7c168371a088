/**
 * The revocations a log proved to this client, kept in its memory (trust-memory.ts) under
 * the log's verifier key and the UMID: revocation is permanent (EXT-OPT O2.3), so a later
 * checkpoint of the same log whose latest entry for the UMID is anything else records a
 * revocation undone, which the client refuses (latest-logged.ts, rule
 * `log/revocation-undone`), whichever resolver serves that log.
 */
import { formatVerifierKey, type NoteKey } from "../tlog/note-keys.ts";
import type { TrustMemory } from "./trust-memory.ts";

// The verifier key holds no space: the UMID is all that follows the second.
const keyOf = (key: NoteKey, umid: string) => `logged-revocation ${formatVerifierKey(key.name, key.publicKey)} ${umid}`;

/** Where this client saw the log signed by `key` prove `umid` revoked; undefined when it never did. */
export async function recallLoggedRevocation(
  memory: TrustMemory | undefined,
  key: NoteKey,
  umid: string,
): Promise<string | undefined> {
  const record = await memory?.recall(keyOf(key, umid));
  return record?.kind === "revoked" ? record.url : undefined;
}

/** Remembers that the log signed by `key` proved `umid` revoked, at `url` (`now`: the evaluation clock). */
export async function rememberLoggedRevocation(
  memory: TrustMemory | undefined,
  key: NoteKey,
  umid: string,
  url: string,
  now: number,
): Promise<void> {
  if (memory !== undefined && (await recallLoggedRevocation(memory, key, umid)) === undefined)
    await memory.keep(keyOf(key, umid), { kind: "revoked", url, storedAt: now });
}
