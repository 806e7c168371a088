/**
 * A UMID's latest entry as a C2SP tlog-proof, provable offline: the entry's index and
 * inclusion proof in the checkpoint's tree, the checkpoint as served (the log's signature
 * and the witnesses' cosignatures), and, as the proof's extra data, what shows the entry
 * is the UMID's latest: the JCS text `{"bucket":<its latest-map bucket file>,"entry":"<the
 * entry's text>"}`. The extra data is not trusted: the verifier checks the entry against
 * the inclusion proof and the bucket against the checkpoint's latest-map line
 * (core/client/offline-proof.ts).
 *
 * A proof is made from the files a log already serves (the checkpoint, a bucket, an entry
 * bundle, the tiles of the proof), so serving one costs the build nothing: every append
 * changes the checkpoint, and with it every proof, and no file per UMID could keep up.
 */
import { decodeUtf8, utf8 } from "../base64url.ts";
import { parseCheckpoint } from "./checkpoint.ts";
import { parseEntryBundle } from "./entry-bundle.ts";
import { bucketOf, bucketPath, latestEntryIn, parseLatestLine } from "./latest-map.ts";
import { parseLogEntry } from "./log-entry.ts";
import { parseNote } from "./note.ts";
import { inclusionProof } from "./proofs.ts";
import { TILE_WIDTH, tilePath, tileWidth } from "./tile.ts";
import { TileHashes, type TileStore } from "./tile-hashes.ts";
import { formatTlogProof } from "./tlog-proof.ts";

/** The extra data of a latest proof: the UMID's bucket file and its latest entry, as JCS text. */
function latestProofExtra(bucketFile: string, entry: string): Uint8Array {
  // JCS: members in code-point order, the bucket file JCS already, a string as JSON.stringify writes it.
  return utf8(`{"bucket":${bucketFile},"entry":${JSON.stringify(entry)}}`);
}

/**
 * The tlog-proof of `umid`'s latest entry in the log `store` serves, from its checkpoint as it is; undefined when the
 * log has no entry for the UMID, or its files do not make a proof (a checkpoint that is none, a file missing).
 */
export async function latestProof(store: TileStore, umid: string): Promise<string | undefined> {
  const noteBytes = await store.read("checkpoint");
  const note = noteBytes && parseNote(noteBytes);
  const checkpoint = note && parseCheckpoint(note.text);
  const commitment = checkpoint && parseLatestLine(checkpoint.extensions);
  if (commitment === undefined) return undefined;
  const { size } = checkpoint!;
  const bucket = await store.read(bucketPath(size, bucketOf(umid, commitment.bits)));
  const latest = bucket && latestEntryIn(bucket, umid, commitment);
  if (!latest?.ok || latest.index >= size) return undefined;
  const { index } = latest;
  const tileIndex = Math.floor(index / TILE_WIDTH);
  const width = tileWidth(0, tileIndex, size);
  const bundle = await store.read(tilePath({ level: "entries", index: tileIndex, width }));
  const entry = bundle && parseEntryBundle(bundle, width)?.[index % TILE_WIDTH];
  if (entry === undefined || parseLogEntry(entry)?.umid !== umid) return undefined;
  const proof = await inclusionProof(new TileHashes(store, size), index, size).catch(() => undefined);
  if (proof === undefined) return undefined;
  const extra = latestProofExtra(decodeUtf8(bucket!)!, decodeUtf8(entry)!);
  return formatTlogProof({ extra, index, proof, checkpoint: decodeUtf8(noteBytes!)! });
}
