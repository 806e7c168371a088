/**
 * RFC 6962 Merkle hashing, roots, inclusion and consistency proofs (core/tlog) against the
 * known answers Go's sumdb/tlog computed, and proofs made and verified for random trees.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { EMPTY_TREE_ROOT, type Hash, leafHash, treeRoot } from "../../core/tlog/merkle.ts";
import { consistencyProof, inclusionProof, verifyConsistency, verifyInclusion } from "../../core/tlog/proofs.ts";
import { TreeHashes } from "../../core/tlog/tree-hashes.ts";
import { base64, skipWithoutVectors as skip, vectors } from "../support/tlog-vectors.ts";

const v = vectors!;

describe("RFC 6962 hashing (known answers)", { skip }, () => {
  it("hashes leaves with the 0x00 prefix", () => {
    assert.deepEqual(v.entries.slice(0, 3).map(leafHash), v.leafHashesOfFirstThree.map(base64));
  });
  it("gives the empty tree SHA-256 of nothing", () => {
    assert.deepEqual(EMPTY_TREE_ROOT, base64(v.emptyTreeRoot));
  });
  it("has the known root for every size", async () => {
    assert.ok(v.roots.size >= 16);
    for (const [size, root] of v.roots) assert.deepEqual(await treeRoot(v.tree, size), root, `size ${size}`);
  });
});

describe("inclusion proofs (known answers)", { skip }, () => {
  for (const { index, treeSize, proof } of vectors?.inclusionProofs ?? []) {
    it(`proves entry ${index} in the tree of ${treeSize}`, async () => {
      const expected = proof.map(base64);
      assert.deepEqual(await inclusionProof(v.tree, index, treeSize), expected);
      const root = await treeRoot(v.tree, treeSize);
      assert.equal(verifyInclusion(leafHash(v.entries[index]!), index, treeSize, expected, root), true);
      assert.equal(
        verifyInclusion(leafHash(v.entries[index === 0 ? 1 : index - 1]!), index, treeSize, expected, root),
        false,
      );
    });
  }
});

describe("consistency proofs (known answers)", { skip }, () => {
  for (const { oldSize, newSize, proof } of vectors?.consistencyProofs ?? []) {
    it(`proves the tree of ${oldSize} a prefix of the tree of ${newSize}`, async () => {
      const expected = proof.map(base64);
      assert.deepEqual(await consistencyProof(v.tree, oldSize, newSize), expected);
      const [oldRoot, newRoot] = [await treeRoot(v.tree, oldSize), await treeRoot(v.tree, newSize)];
      assert.equal(verifyConsistency(oldSize, newSize, expected, oldRoot, newRoot), true);
      assert.equal(verifyConsistency(oldSize, newSize, expected, newRoot, oldRoot), false);
    });
  }
});

/** A tree of `size` entries, each its index's decimal digits. */
const treeOf = (size: number) =>
  new TreeHashes(Array.from({ length: size }, (_, i) => leafHash(new TextEncoder().encode(String(i)))));

/** `hashes` with one bit of one of them flipped. */
function altered(hashes: readonly Hash[], which: number, bit: number): Hash[] {
  return hashes.map((hash, i) => {
    if (i !== which % hashes.length) return hash;
    const copy = hash.slice();
    copy[bit >> 3]! ^= 1 << (bit & 7);
    return copy;
  });
}

describe("proofs of random trees", () => {
  const sizes = fc.integer({ min: 1, max: 1100 });
  /** A size, and an index or a smaller size in it. */
  const sizeAndIndex = sizes.chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1)));
  const changes = { which: fc.nat(), bit: fc.integer({ min: 0, max: 255 }) };

  it("an inclusion proof verifies, and fails with any hash altered", async () => {
    await fc.assert(
      fc.asyncProperty(sizeAndIndex, fc.record(changes), async ([size, index], c) => {
        const tree = treeOf(size);
        const [leaf, root] = [await tree.subtreeHash(0, index), await treeRoot(tree, size)];
        const proof = await inclusionProof(tree, index, size);
        assert.equal(verifyInclusion(leaf, index, size, proof, root), true);
        assert.equal(verifyInclusion(altered([leaf], 0, c.bit)[0]!, index, size, proof, root), false);
        assert.equal(verifyInclusion(leaf, index, size, proof, altered([root], 0, c.bit)[0]!), false);
        if (proof.length > 0)
          assert.equal(verifyInclusion(leaf, index, size, altered(proof, c.which, c.bit), root), false);
        assert.equal(verifyInclusion(leaf, index, size, [...proof, root], root), false);
      }),
      { numRuns: 60 },
    );
  });

  it("a consistency proof verifies, and fails with any hash altered", async () => {
    await fc.assert(
      fc.asyncProperty(sizeAndIndex, fc.record(changes), async ([newSize, below], c) => {
        const tree = treeOf(newSize);
        const oldSize = below + 1;
        const [oldRoot, newRoot] = [await treeRoot(tree, oldSize), await treeRoot(tree, newSize)];
        const proof = await consistencyProof(tree, oldSize, newSize);
        assert.equal(verifyConsistency(oldSize, newSize, proof, oldRoot, newRoot), true);
        assert.equal(verifyConsistency(oldSize, newSize, proof, altered([oldRoot], 0, c.bit)[0]!, newRoot), false);
        assert.equal(verifyConsistency(oldSize, newSize, proof, oldRoot, altered([newRoot], 0, c.bit)[0]!), false);
        if (proof.length > 0)
          assert.equal(verifyConsistency(oldSize, newSize, altered(proof, c.which, c.bit), oldRoot, newRoot), false);
      }),
      { numRuns: 60 },
    );
  });

  it("a tree is consistent with itself and with the empty tree, with no proof", async () => {
    const root = await treeRoot(treeOf(5), 5);
    assert.equal(verifyConsistency(5, 5, [], root, root), true);
    assert.equal(verifyConsistency(0, 5, [], EMPTY_TREE_ROOT, root), true);
    assert.equal(verifyConsistency(6, 5, [], root, root), false);
  });
});
