/**
 * The requests the witness benchmark sends (issue 41's targets): signed checkpoints of a
 * log and the consistency proof from each to the next, as add-checkpoint bodies. A tree
 * is held packed, one buffer per level, so that a log of a million entries costs 64 MB,
 * not an object per hash; its complete subtrees are the same for every size it holds, so
 * one tree serves the proofs between all of them.
 */
import { utf8 } from "../core/base64url.ts";
import { signCheckpoint } from "../core/tlog/checkpoint.ts";
import { type Hash, type HashReader, HASH_SIZE, leafHash, nodeHash, treeRoot } from "../core/tlog/merkle.ts";
import type { NoteSigner } from "../core/tlog/note-signature.ts";
import { consistencyProof } from "../core/tlog/proofs.ts";
import { formatAddCheckpoint } from "../core/tlog/witness-protocol.ts";

/** Every complete subtree hash of a tree of `size` synthetic entries, one buffer per level. */
export function packedTree(size: number, entry: (i: number) => string): HashReader {
  const levels: Uint8Array[] = [new Uint8Array(size * HASH_SIZE)];
  for (let i = 0; i < size; i++) levels[0]!.set(leafHash(utf8(entry(i))), i * HASH_SIZE);
  for (let width = Math.floor(size / 2); width > 0; width = Math.floor(width / 2)) {
    const below = levels.at(-1)!;
    const level = new Uint8Array(width * HASH_SIZE);
    const at = (i: number): Hash => below.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE);
    for (let i = 0; i < width; i++) level.set(nodeHash(at(2 * i), at(2 * i + 1)), i * HASH_SIZE);
    levels.push(level);
  }
  return {
    subtreeHash: async (level, index) => {
      const hashes = levels[level];
      if (hashes === undefined || (index + 1) * HASH_SIZE > hashes.length)
        throw new RangeError(`no complete subtree at level ${level}, index ${index}`);
      return hashes.subarray(index * HASH_SIZE, (index + 1) * HASH_SIZE);
    },
  };
}

/**
 * The add-checkpoint bodies that take a witness from `sizes[0]` (the first, from old size 0 with no proof) through
 * each later size in turn, for the log `signer` signs, over `tree`.
 */
export async function checkpointChain(
  signer: NoteSigner,
  tree: HashReader,
  sizes: readonly number[],
): Promise<string[]> {
  const bodies: string[] = [];
  for (const [i, size] of sizes.entries()) {
    const rootHash = await treeRoot(tree, size);
    const checkpoint = await signCheckpoint({ origin: signer.name, size, rootHash, extensions: [] }, signer);
    const oldSize = i === 0 ? 0 : sizes[i - 1]!;
    const proof = oldSize === 0 ? [] : await consistencyProof(tree, oldSize, size);
    bodies.push(formatAddCheckpoint({ oldSize, proof, checkpoint }));
  }
  return bodies;
}
