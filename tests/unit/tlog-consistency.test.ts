/**
 * proveConsistency (core/tlog/consistency.ts): that one checkpoint's tree extends another's, proven over the tiles
 * of the larger tree as a client or a monitor reads them (RFC 9162 §2.1.4): a grown log extends its past, a smaller
 * tree or another log of the same sizes does not, and a tile that cannot be read proves nothing either way.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utf8 } from "../../core/base64url.ts";
import { type Append, appendEntries } from "../../core/tlog/append.ts";
import { proveConsistency } from "../../core/tlog/consistency.ts";
import { EMPTY_TREE_ROOT } from "../../core/tlog/merkle.ts";
import { TileHashes } from "../../core/tlog/tile-hashes.ts";

type Head = Parameters<typeof proveConsistency>[1];
/** proveConsistency over the tiles `files` serve of the newer tree, as a client reads them. */
const proveOver = (files: ReadonlyMap<string, Uint8Array>, older: Head, newer: Head) =>
  proveConsistency(new TileHashes({ read: async (path) => files.get(path) }, newer.size), older, newer);

/** A log grown by appends of these sizes, its entries named by `name`: its files, and each append's tree head. */
async function grownLog(name: string, appends: readonly number[]) {
  const files = new Map<string, Uint8Array>();
  const heads: Append[] = [];
  let size = 0;
  for (const count of appends) {
    const entries = Array.from({ length: count }, (_, i) => utf8(`${name} ${size + i}`));
    const append = await appendEntries({ read: async (path) => files.get(path) }, size, entries);
    for (const [path, bytes] of append.files) files.set(path, bytes);
    heads.push(append);
    size += count;
  }
  return { files, heads };
}

describe("proveConsistency", () => {
  it("proves a grown log extends each of its past checkpoints, over two tile levels", async () => {
    const { files, heads } = await grownLog("a", [1, 99, 156, 44, 70000 - 300]);
    for (const older of heads)
      assert.deepEqual(await proveOver(files, older, heads.at(-1)!), { ok: true }, `${older.size}`);
    assert.deepEqual(await proveOver(files, { size: 0, rootHash: EMPTY_TREE_ROOT }, heads[0]!), {
      ok: true,
    });
  });

  it("refuses a smaller tree, and another log of the same sizes, with the same key or not", async () => {
    const a = await grownLog("a", [100, 200]);
    const b = await grownLog("b", [100, 200]);
    assert.deepEqual(await proveOver(a.files, a.heads[1]!, a.heads[0]!), {
      ok: false,
      reason: "smaller",
    });
    assert.deepEqual(await proveOver(b.files, a.heads[0]!, b.heads[1]!), {
      ok: false,
      reason: "inconsistent",
    });
    // The same size, another root: not the same tree.
    assert.deepEqual(await proveOver(b.files, a.heads[1]!, b.heads[1]!), {
      ok: false,
      reason: "inconsistent",
    });
  });

  it("proves nothing from tiles that are not there", async () => {
    const { heads } = await grownLog("a", [100, 200]);
    const proven = await proveOver(new Map(), heads[0]!, heads[1]!);
    assert.equal(proven.ok, false);
    assert.equal(!proven.ok && proven.reason, "unreadable");
    assert.match(!proven.ok && proven.reason === "unreadable" ? proven.message : "", /^tile\/0\/.*: not found$/);
  });
});
