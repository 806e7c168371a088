/**
 * Inclusion and consistency proofs (RFC 6962 §2.1.1 and §2.1.2), produced from any
 * HashReader, and verified as RFC 9162 §2.1.3.2 and §2.1.4.2 prescribe, so a proof made
 * here is the proof Go's sumdb/tlog or any other RFC 6962 log makes for the same tree.
 */
import { EMPTY_TREE_ROOT, type Hash, type HashReader, nodeHash, rangeHash, sameHash, splitPoint } from "./merkle.ts";

/** PATH(index, D[0:size]): the audit path of entry `index` in the tree of `size` entries. */
export async function inclusionProof(reader: HashReader, index: number, size: number): Promise<Hash[]> {
  if (!(0 <= index && index < size)) throw new RangeError(`entry ${index} is not in a tree of ${size}`);
  const proof: Hash[] = [];
  let start = 0;
  let end = size;
  // Down from the root; the path lists the siblings from the leaf up, so each is put first.
  while (end - start > 1) {
    const middle = start + splitPoint(end - start);
    if (index < middle) {
      proof.unshift(await rangeHash(reader, middle, end));
      end = middle;
    } else {
      proof.unshift(await rangeHash(reader, start, middle));
      start = middle;
    }
  }
  return proof;
}

/** PROOF(oldSize, D[0:newSize]): that the first oldSize entries are unchanged in the tree of newSize. */
export async function consistencyProof(reader: HashReader, oldSize: number, newSize: number): Promise<Hash[]> {
  if (!(0 < oldSize && oldSize <= newSize)) throw new RangeError(`no proof from size ${oldSize} to ${newSize}`);
  const proof: Hash[] = [];
  let start = 0;
  let end = newSize;
  let whole = true; // SUBPROOF's b: the old tree is this subtree, whose hash the verifier has.
  while (oldSize !== end) {
    const middle = start + splitPoint(end - start);
    if (oldSize <= middle) {
      proof.unshift(await rangeHash(reader, middle, end));
      end = middle;
    } else {
      proof.unshift(await rangeHash(reader, start, middle));
      start = middle;
      whole = false;
    }
  }
  if (!whole) proof.unshift(await rangeHash(reader, start, end));
  return proof;
}

/** Whether `proof` shows the entry with `leaf` hash at `index` in the tree of `size` with `root`. */
export function verifyInclusion(leaf: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): boolean {
  if (!(0 <= index && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let hash = leaf;
  for (const sibling of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      hash = nodeHash(sibling, hash);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      hash = nodeHash(hash, sibling);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && sameHash(hash, root);
}

/** Whether `proof` shows the tree of oldSize with oldRoot to be a prefix of the tree of newSize with newRoot. */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  proof: readonly Hash[],
  oldRoot: Hash,
  newRoot: Hash,
): boolean {
  if (!(0 <= oldSize && oldSize <= newSize)) return false;
  // Every tree extends the empty one, and a tree only itself: no proof is needed for either.
  if (oldSize === 0) return proof.length === 0 && sameHash(oldRoot, EMPTY_TREE_ROOT);
  if (oldSize === newSize) return proof.length === 0 && sameHash(oldRoot, newRoot);
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) [fn, sn] = [half(fn), half(sn)];
  let oldHash = path[0];
  let newHash = path[0];
  if (oldHash === undefined || newHash === undefined) return false;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      oldHash = nodeHash(c, oldHash);
      newHash = nodeHash(c, newHash);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      newHash = nodeHash(newHash, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && sameHash(oldHash, oldRoot) && sameHash(newHash, newRoot);
}

/** A right shift by one that stays exact past 2^31. */
const half = (n: number) => Math.floor(n / 2);

const isPowerOfTwo = (n: number) => splitPoint(n + 1) === n;
