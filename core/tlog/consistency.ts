/**
 * Whether one checkpoint's tree extends another's (RFC 9162 §2.1.4), proven over the tiles
 * a log serves of the larger tree: what a client checks of each checkpoint against the
 * largest it saw before, and a monitor of each checkpoint it fetches. The proof is
 * computed from the served tiles, which are trusted for nothing: it holds only if it
 * verifies against both signed root hashes.
 */
import type { Checkpoint } from "./checkpoint.ts";
import { consistencyProof, verifyConsistency } from "./proofs.ts";
import { TileHashes, type TileStore } from "./tile-hashes.ts";

export type Consistency =
  | { ok: true }
  /** `smaller`: the newer tree has fewer entries; `inconsistent`: the tiles prove it is not an extension. */
  | { ok: false; reason: "smaller" | "inconsistent" }
  /** A tile could not be read or is not one: nothing is proven either way. */
  | { ok: false; reason: "unreadable"; message: string };

type TreeHead = Pick<Checkpoint, "size" | "rootHash">;

/** Whether `newer`'s tree extends `older`'s, by a consistency proof from the tiles `store` holds of `newer`'s tree. */
export async function proveConsistency(store: TileStore, older: TreeHead, newer: TreeHead): Promise<Consistency> {
  if (newer.size < older.size) return { ok: false, reason: "smaller" };
  let proof: Uint8Array[] = [];
  // A tree extends the empty one, and itself, with no proof; verifyConsistency compares the roots.
  if (older.size > 0 && older.size < newer.size) {
    try {
      proof = await consistencyProof(new TileHashes(store, newer.size), older.size, newer.size);
    } catch (error) {
      return { ok: false, reason: "unreadable", message: error instanceof Error ? error.message : String(error) };
    }
  }
  return verifyConsistency(older.size, newer.size, proof, older.rootHash, newer.rootHash)
    ? { ok: true }
    : { ok: false, reason: "inconsistent" };
}
