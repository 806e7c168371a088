/**
 * A transparency log made in this process, as `manifest-resolver log` makes one but from any entry bytes, even ones
 * `log` would never write (an entry whose UMID is a lone surrogate): its files as the resolver serves them, by path
 * under the log's prefix (checkpoint, tiles, bundles, the latest map's buckets), and its verifier key.
 */
import { utf8 } from "../../core/base64url.ts";
import { appendEntries } from "../../core/tlog/append.ts";
import { signCheckpoint } from "../../core/tlog/checkpoint.ts";
import { bucketFile, bucketPath, formatLatestLine, latestMap } from "../../core/tlog/latest-map.ts";
import { formatVerifierKey } from "../../core/tlog/note-keys.ts";
import type { NoteSigner } from "../../core/tlog/note-signature.ts";

export interface SignedLog {
  /** What the resolver serves, by path under the log's prefix. */
  files: Map<string, Uint8Array>;
  /** The verifier key, as content/_log/verifier holds it (without its newline). */
  verifier: string;
}

/**
 * The log of `entries`, in order, signed by `signer`; its checkpoint commits to the latest map of `umids`, each the UMID
 * of the entry at the same place (an honest log's map names every entry's UMID; a test's may name fewer).
 */
export async function signedLog(
  entries: readonly Uint8Array[],
  umids: readonly string[],
  signer: NoteSigner,
): Promise<SignedLog> {
  const none = { read: async () => undefined };
  const { size, rootHash, files } = await appendEntries(none, 0, entries);
  const map = await latestMap(umids);
  const checkpoint = { origin: signer.name, size, rootHash, extensions: [formatLatestLine(map)] };
  files.set("checkpoint", utf8(await signCheckpoint(checkpoint, signer)));
  for (let bucket = 0; bucket < map.buckets.length; bucket++)
    files.set(bucketPath(size, bucket), await bucketFile(map, bucket));
  return { files, verifier: formatVerifierKey(signer.name, signer.publicKey) };
}
