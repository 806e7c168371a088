/**
 * RFC 6962 §2.1 Merkle tree hashing, as tlog-tiles uses it: a leaf hashes as
 * SHA-256(0x00 || entry), an inner node as SHA-256(0x01 || left || right), and the empty
 * tree as SHA-256 of nothing. Hashes come from a HashReader: memory while a log is built,
 * tiles when a client reads a served log (tile-hashes.ts), so the same code computes
 * roots and proofs for both.
 */
import { sha256 } from "@noble/hashes/sha2.js";

/** A SHA-256 hash: 32 bytes. */
export type Hash = Uint8Array;

export const HASH_SIZE = 32;

/** MTH({}): the root of a tree of no entries. */
export const EMPTY_TREE_ROOT: Hash = sha256(new Uint8Array(0));

export function leafHash(entry: Uint8Array): Hash {
  const input = new Uint8Array(1 + entry.length);
  input.set(entry, 1);
  return sha256(input);
}

export function nodeHash(left: Hash, right: Hash): Hash {
  const input = new Uint8Array(1 + 2 * HASH_SIZE);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 1 + HASH_SIZE);
  return sha256(input);
}

/** Where the hashes of complete subtrees come from. */
export interface HashReader {
  /** MTH of the 2^level entries from index·2^level on; rejects when that subtree is not there. */
  subtreeHash(level: number, index: number): Promise<Hash>;
}

/**
 * MTH(D[start:end]) for a range RFC 6962's recursion meets: start is a multiple of the
 * largest power of two not above end - start, so the range is complete subtrees, largest
 * first, and its hash folds them from the right.
 */
export async function rangeHash(reader: HashReader, start: number, end: number): Promise<Hash> {
  const parts: Hash[] = [];
  while (start < end) {
    let level = 0;
    while (2 ** (level + 1) <= end - start) level++;
    parts.push(await reader.subtreeHash(level, start / 2 ** level));
    start += 2 ** level;
  }
  let hash = parts.pop();
  if (hash === undefined) throw new RangeError("an empty range has no subtree hash");
  while (parts.length > 0) hash = nodeHash(parts.pop()!, hash);
  return hash;
}

/** The root hash of the first `size` entries. */
export function treeRoot(reader: HashReader, size: number): Promise<Hash> {
  return size === 0 ? Promise.resolve(EMPTY_TREE_ROOT) : rangeHash(reader, 0, size);
}

/** The largest power of two below n (n >= 2): where RFC 6962 splits a tree of n entries. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function sameHash(a: Hash, b: Hash): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
