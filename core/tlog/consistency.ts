/**
 * Whether one checkpoint's tree extends another's (RFC 9162 §2.1.4), proven from the
 * hashes of the larger tree: what a client checks of each checkpoint against the largest
 * it saw before (over the tiles the log serves), and a monitor of each checkpoint it
 * fetches (over the entries it audited). The hashes are trusted for nothing: the proof
 * holds only if it verifies against both signed root hashes.
 */
import type { Checkpoint } from "./checkpoint.ts";
import type { HashReader } from "./merkle.ts";
import { consistencyProof, verifyConsistency } from "./proofs.ts";

export type Consistency =
  | { ok: true }
  /** `smaller`: the newer tree has fewer entries; `inconsistent`: the tiles prove it is not an extension. */
  | { ok: false; reason: "smaller" | "inconsistent" }
  /** A hash could not be read (a tile missing or not one): nothing is proven either way. */
  | { ok: false; reason: "unreadable"; message: string };

type TreeHead = Pick<Checkpoint, "size" | "rootHash">;

/** Whether `newer`'s tree extends `older`'s, by a consistency proof from `reader`, the hashes of `newer`'s tree. */
export async function proveConsistency(reader: HashReader, older: TreeHead, newer: TreeHead): Promise<Consistency> {
  if (newer.size < older.size) return { ok: false, reason: "smaller" };
  let proof: Uint8Array[] = [];
  // A tree extends the empty one, and itself, with no proof; verifyConsistency compares the roots.
  if (older.size > 0 && older.size < newer.size) {
    try {
      proof = await consistencyProof(reader, older.size, newer.size);
    } catch (error) {
      return { ok: false, reason: "unreadable", message: error instanceof Error ? error.message : String(error) };
    }
  }
  return verifyConsistency(older.size, newer.size, proof, older.rootHash, newer.rootHash)
    ? { ok: true }
    : { ok: false, reason: "inconsistent" };
}
