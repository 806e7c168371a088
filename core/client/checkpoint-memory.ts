/**
 * The largest checkpoint this client has seen of a log, kept in its memory (trust-memory.ts,
 * apart from the HTTP cache) under the log's verifier key (the key names the log, wherever
 * it is served from), so that a later checkpoint smaller than it, not extending it, or of
 * its size with another body (a second view the key signed) is refused (latest-logged.ts).
 * The signed note is kept as it came, and opened again with the key when read: a store
 * that holds anything else holds nothing.
 */
import { decodeUtf8 } from "../base64url.ts";
import { type Checkpoint, formatCheckpoint, openCheckpoint } from "../tlog/checkpoint.ts";
import { formatVerifierKey, type NoteKey } from "../tlog/note-keys.ts";
import type { TrustMemory } from "./trust-memory.ts";

const keyOf = (key: NoteKey) => `checkpoint ${formatVerifierKey(key.name, key.publicKey)}`;

/** The checkpoint of the log signed by `key` that `memory` remembers, once it verifies. */
export async function recallCheckpoint(memory: TrustMemory | undefined, key: NoteKey): Promise<Checkpoint | undefined> {
  const record = await memory?.recall(keyOf(key));
  if (record?.kind !== "checkpoint") return undefined;
  const opened = await openCheckpoint(record.note, key, key.name);
  return opened.ok ? opened.checkpoint : undefined;
}

/**
 * Remembers `note` (a checkpoint of size `size`, proven to extend `proven`, the one recalled; undefined: none was) as
 * seen at `url`, `now` the evaluation clock. Unless the memory holds another checkpoint than `proven` by now, which
 * another resolution remembered meanwhile: then nothing is written, and that checkpoint is returned, for `note` to be
 * proven against it first. The window that remains is the store's read-then-write.
 */
export async function rememberCheckpoint(
  memory: TrustMemory | undefined,
  key: NoteKey,
  proven: Checkpoint | undefined,
  seen: { note: Uint8Array; size: number; url: string },
  now: number,
): Promise<Checkpoint | undefined> {
  if (memory === undefined) return undefined;
  const stored = await recallCheckpoint(memory, key);
  if (stored !== undefined && (proven === undefined || !sameCheckpoint(stored, proven))) return stored;
  if (stored === undefined || stored.size < seen.size)
    await memory.keep(keyOf(key), { kind: "checkpoint", note: decodeUtf8(seen.note)!, url: seen.url, storedAt: now });
  return undefined;
}

/** Whether two checkpoints are one signed body: origin, size, root hash and every extension line alike. */
export const sameCheckpoint = (a: Checkpoint, b: Checkpoint) => formatCheckpoint(a) === formatCheckpoint(b);
