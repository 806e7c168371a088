/**
 * C2SP tlog-proof (core/tlog/tlog-proof.ts): the known inclusion proofs of
 * ../shared/vectors/tlog/vectors.json, with signed checkpoints, written as tlog-proofs by
 * ours and by the independent implementation, byte for byte the same, each parsing the
 * other's and verifying in both (its own RFC 6962 MTH and path check); the spec's example,
 * as far as its elided signatures let it be read; and texts that are no proof.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatCheckpoint, parseCheckpoint } from "../../core/tlog/checkpoint.ts";
import { leafHash } from "../../core/tlog/merkle.ts";
import { parseNote } from "../../core/tlog/note.ts";
import { ed25519Signer, signNote } from "../../core/tlog/note-signature.ts";
import { verifyInclusion } from "../../core/tlog/proofs.ts";
import { formatTlogProof, parseTlogProof, TLOG_PROOF_HEADER, type TlogProof } from "../../core/tlog/tlog-proof.ts";
import {
  formatTlogProofText,
  leafHashOf,
  mth,
  parseTlogProofText,
  rootFromInclusion,
} from "../support/c2sp-independent.ts";
import { skipWithoutVectors as skip, vectors } from "../support/tlog-vectors.ts";

const bytes = (proof: TlogProof) => ({ ...proof, proof: proof.proof.map((hash) => Buffer.from(hash)) });

describe("the known inclusion proofs as tlog-proofs (vectors.json)", { skip }, () => {
  const v = vectors!;
  const leaves = v?.entries.map((entry) => leafHashOf(Buffer.from(entry))) ?? [];
  it("the independent MTH gives the known roots", () => {
    for (const [size, root] of v.roots) assert.deepEqual(mth(leaves.slice(0, size)), Buffer.from(root), `size ${size}`);
  });
  for (const { index, treeSize, proof } of v?.inclusionProofs ?? []) {
    it(`leaf ${index} of ${treeSize}: the same text both ways, and it verifies in both`, async () => {
      const signer = (await ed25519Signer({ name: v.note.origin, seed: Buffer.from(v.note.ed25519SeedHex, "hex") }))!;
      const root = mth(leaves.slice(0, treeSize));
      const checkpoint = await signNote(
        formatCheckpoint({ origin: v.note.origin, size: treeSize, rootHash: root, extensions: [] }),
        [signer],
      );
      const hashes = proof.map((hash) => Buffer.from(hash, "base64"));
      const extra = index % 2 === 0 ? undefined : Buffer.from(`entry ${index}`);
      const data = { ...(extra && { extra }), index, proof: hashes, checkpoint };
      const ours = formatTlogProof(data);
      assert.equal(ours, formatTlogProofText(data));
      const theirsParsed = parseTlogProofText(ours);
      const oursParsed = parseTlogProof(ours);
      assert.ok(!("fault" in oursParsed) && !("error" in theirsParsed));
      assert.deepEqual(theirsParsed, data);
      assert.deepEqual(
        bytes({ ...oursParsed, ...(oursParsed.extra && { extra: Buffer.from(oursParsed.extra) }) }),
        data,
      );
      const signed = parseCheckpoint(parseNote(oursParsed.checkpoint)!.text)!;
      assert.ok(verifyInclusion(leafHash(v.entries[index]!), index, treeSize, oursParsed.proof, signed.rootHash));
      assert.deepEqual(rootFromInclusion(leaves[index]!, index, treeSize, theirsParsed.proof), root);
      if (treeSize > 1) {
        assert.equal(verifyInclusion(leafHash(v.entries[index]!), index ^ 1, treeSize, oursParsed.proof, root), false);
        assert.notDeepEqual(rootFromInclusion(leaves[index]!, index ^ 1, treeSize, theirsParsed.proof), root);
      }
    });
  }
});

describe("the spec's example proof (tlog-proof)", () => {
  const example = `c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
— witness1.example mJirIklj[...]qY9v2B/5bg==
`;
  it("reads as the extra data, index 73894, five hashes and the checkpoint, in both implementations", () => {
    assert.equal(example.split("\n")[0], TLOG_PROOF_HEADER);
    const ours = parseTlogProof(example);
    const theirs = parseTlogProofText(example);
    assert.ok(!("fault" in ours) && !("error" in theirs));
    assert.equal(new TextDecoder().decode(ours.extra).slice(0, 26), "age-v1.2.1-darwin-arm64.ta");
    assert.equal(ours.index, 73894);
    assert.equal(ours.proof.length, 5);
    assert.deepEqual(bytes(ours).proof, theirs.proof);
    assert.equal(ours.checkpoint, theirs.checkpoint);
    assert.equal(formatTlogProof(ours), example);
  });
  it("its checkpoint's text is one; its elided signatures make it no signed note", () => {
    const ours = parseTlogProof(example) as TlogProof;
    const text = ours.checkpoint.slice(0, ours.checkpoint.indexOf("\n\n") + 1);
    assert.deepEqual(
      { ...parseCheckpoint(text), rootHash: undefined },
      { origin: "example.com/fancylog", size: 109482, rootHash: undefined, extensions: [] },
    );
    assert.equal(parseNote(ours.checkpoint), undefined);
  });
  it("is illustrative: five hashes cannot prove leaf 73894 of 109482, whose path has 17, in either", () => {
    const ours = parseTlogProof(example) as TlogProof;
    const root = parseCheckpoint(ours.checkpoint.slice(0, ours.checkpoint.indexOf("\n\n") + 1))!.rootHash;
    assert.equal(verifyInclusion(new Uint8Array(32), 73894, 109482, ours.proof, root), false);
    assert.equal(rootFromInclusion(Buffer.alloc(32), 73894, 109482, bytes(ours).proof), undefined);
  });
});

describe("a text that is no tlog-proof", () => {
  const hash = Buffer.alloc(32, 7).toString("base64");
  const checkpoint = "example.com/log\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n\n— example.com/log AAAA\n";
  const cases: [string, string][] = [
    ["another header", `c2sp.org/tlog-proof@v2\nindex 0\n\n${checkpoint}`],
    ["a carriage return", `c2sp.org/tlog-proof@v1\r\nindex 0\n\n${checkpoint}`],
    ["no index line", `c2sp.org/tlog-proof@v1\n${hash}\n\n${checkpoint}`],
    ["an index with a leading zero", `c2sp.org/tlog-proof@v1\nindex 01\n\n${checkpoint}`],
    ["a negative index", `c2sp.org/tlog-proof@v1\nindex -1\n\n${checkpoint}`],
    ["an index with a trailing space", `c2sp.org/tlog-proof@v1\nindex 1 \n\n${checkpoint}`],
    ["extra data that is no base64", `c2sp.org/tlog-proof@v1\nextra a*b=\nindex 0\n\n${checkpoint}`],
    ["extra data in non-canonical base64", `c2sp.org/tlog-proof@v1\nextra YR==\nindex 0\n\n${checkpoint}`],
    ["extra after the index", `c2sp.org/tlog-proof@v1\nindex 0\nextra YQ==\n\n${checkpoint}`],
    ["a hash of 31 bytes", `c2sp.org/tlog-proof@v1\nindex 0\n${Buffer.alloc(31).toString("base64")}\n\n${checkpoint}`],
    ["a hash line with a space", `c2sp.org/tlog-proof@v1\nindex 0\n ${hash}\n\n${checkpoint}`],
    ["no empty line", `c2sp.org/tlog-proof@v1\nindex 0\n${hash}\n`],
  ];
  for (const [what, text] of cases)
    it(`${what}: refused by both`, () => {
      assert.ok("fault" in parseTlogProof(text));
      assert.ok("error" in parseTlogProofText(text));
    });
});
