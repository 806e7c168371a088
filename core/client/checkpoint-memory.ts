/**
 * The largest checkpoint this client has seen of a log, kept in its HttpCache (under the
 * log's verifier key, with the fragment `#checkpoint-seen`: the key names the log, wherever
 * it is served from), so that a later checkpoint smaller than it, or not extending it, is
 * refused as a rollback (latest-logged.ts). The signed note is kept as it came, and opened
 * again with the key when read: a store that holds anything else holds nothing.
 */
import { decodeUtf8 } from "../base64url.ts";
import { type Checkpoint, openCheckpoint } from "../tlog/checkpoint.ts";
import { sameHash } from "../tlog/merkle.ts";
import { formatVerifierKey, type NoteKey } from "../tlog/note-keys.ts";
import type { HttpCache } from "./http-cache.ts";

const keyOf = (key: NoteKey) => `${formatVerifierKey(key.name, key.publicKey)}#checkpoint-seen`;

/** The checkpoint of the log signed by `key` that `cache` remembers, once it verifies. */
export async function recallCheckpoint(cache: HttpCache | undefined, key: NoteKey): Promise<Checkpoint | undefined> {
  const entry = await cache?.get(keyOf(key));
  if (entry === undefined) return undefined;
  const opened = await openCheckpoint(entry.body, key, key.name);
  return opened.ok ? opened.checkpoint : undefined;
}

/**
 * Remembers `note` (a checkpoint of size `size`, proven to extend `proven`, the one recalled; undefined: none was) as
 * seen at `url`, `now` the evaluation clock. Unless the store holds another checkpoint than `proven` by now, which
 * another resolution remembered meanwhile: then nothing is written, and that checkpoint is returned, for `note` to be
 * proven against it first. The window that remains is the store's read-then-write.
 */
export async function rememberCheckpoint(
  cache: HttpCache | undefined,
  key: NoteKey,
  proven: Checkpoint | undefined,
  seen: { note: Uint8Array; size: number; url: string },
  now: number,
): Promise<Checkpoint | undefined> {
  if (cache === undefined) return undefined;
  const stored = await recallCheckpoint(cache, key);
  if (stored !== undefined && !sameTree(stored, proven)) return stored;
  if (stored === undefined || stored.size < seen.size)
    await cache.set(keyOf(key), { url: seen.url, body: decodeUtf8(seen.note)!, storedAt: now, maxAge: 0 });
  return undefined;
}

const sameTree = (a: Checkpoint, b: Checkpoint | undefined) =>
  b !== undefined && a.size === b.size && sameHash(a.rootHash, b.rootHash);
