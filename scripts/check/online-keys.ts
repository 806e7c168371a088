/**
 * What `check` fetches unless `--offline`: each did:web keyRef `_keys.json` pins is resolved as
 * a relying party resolves it (core/did/did-web.ts), and its DID document must list the
 * pinned key under assertionMethod. A document the build publishes itself (its host is the
 * resolver's: did-web-documents.ts) is made from the pins, so it is not fetched. A pin on a
 * local or private address is not fetched either when the resolver is not on one: a pull
 * request must not make CI ask its own network, and no relying party of that resolver would.
 * A document that cannot be had costs a warning, never the gate.
 *
 * The documents are asked for as soon as `_keys.json` is read (`earlyOnlineKeys`), so that the
 * network's time passes while the manifests are checked rather than after them.
 */
import type { Fetch } from "../../core/http/fetch-following.ts";
import { spkiPublicKey } from "../../core/crypto/profile-a.ts";
import { resolveDidWebKey } from "../../core/did/did-web.ts";
import { didWebDocumentUrl } from "../../core/did/did-web-url.ts";
import { DEFINITIVE_FAULTS } from "../../core/did/key-ref-fault.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { PinnedKey } from "./keys.ts";

const TIMEOUT_MS = 10_000;

/** onlineKeyProblems, asked for as soon as the pins are known. */
export interface EarlyOnlineKeys {
  /** A content root's pins, read: the first that are not empty are asked for at once. */
  readonly pinned: (pinned: readonly PinnedKey[]) => void;
  /** The problems of the check's pins (its first root's that pin any): those asked for early, if they are these. */
  readonly problems: (pinned: readonly PinnedKey[]) => Promise<Diagnostic[]>;
}

export function earlyOnlineKeys(resolverUrl: string, now: Date, fetch: Fetch): EarlyOnlineKeys {
  let asked: { pinned: readonly PinnedKey[]; problems: Promise<Diagnostic[]> } | undefined;
  return {
    pinned: (pinned) => {
      if (asked !== undefined || pinned.length === 0) return;
      const problems = onlineKeyProblems(pinned, resolverUrl, now, fetch);
      // Awaited by `problems`, unless the check fails first: then its outcome is nobody's.
      problems.catch(() => {});
      asked = { pinned, problems };
    },
    problems: (pinned) =>
      asked?.pinned === pinned ? asked.problems : onlineKeyProblems(pinned, resolverUrl, now, fetch),
  };
}

async function onlineKeyProblems(
  pinned: readonly PinnedKey[],
  resolverUrl: string,
  now: Date,
  fetch: Fetch,
): Promise<Diagnostic[]> {
  const ownHost = resolverUrl === "" ? undefined : new URL(resolverUrl).host;
  const fetched = pinned.filter(({ keyRef }) => {
    const located = didWebDocumentUrl(keyRef.split("#")[0]!);
    return "url" in located && located.url.host !== ownHost;
  });
  const transport = { fetch, timeoutMs: TIMEOUT_MS };
  const problems = await Promise.all(
    fetched.map(async ({ keyRef, spki, where }) => {
      const remote = await resolveDidWebKey(keyRef, {
        transport,
        cache: undefined,
        now: now.getTime(),
        ...(resolverUrl !== "" && { from: resolverUrl }),
      });
      // As a relying party's receipt has it: the DID's own answer naming no such key rejects, anything else leaves the
      // key unconfirmed.
      if ("fault" in remote)
        return DEFINITIVE_FAULTS.has(remote.fault)
          ? diagnostic("keys/did-web-mismatch", where, remote.reason)
          : diagnostic("keys/did-web-unreachable", where, remote.reason);
      const pinnedKey = spkiPublicKey(spki);
      return pinnedKey !== undefined && Buffer.from(pinnedKey).equals(remote.publicKey)
        ? undefined
        : diagnostic(
            "keys/did-web-mismatch",
            where,
            `${remote.documentUrl} lists another key for this keyRef than the one pinned here`,
          );
    }),
  );
  return problems.filter((p) => p !== undefined);
}
