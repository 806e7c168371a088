/**
 * C2SP tlog-tiles (core/tlog): tile paths, the tiles and entry bundles of the known
 * 300-entry tree byte for byte, and roots and proofs computed back from served tiles, as
 * a client computes them, including after the log grows from those tiles.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Append, appendEntries } from "../../core/tlog/append.ts";
import { auditLog } from "../../core/tlog/audit.ts";
import { entryBundle, parseEntryBundle } from "../../core/tlog/entry-bundle.ts";
import { treeRoot } from "../../core/tlog/merkle.ts";
import { consistencyProof, inclusionProof } from "../../core/tlog/proofs.ts";
import { newTiles, parseTilePath, type Tile, tilePath } from "../../core/tlog/tile.ts";
import { TileError, TileHashes, type TileStore } from "../../core/tlog/tile-hashes.ts";
import { skipWithoutVectors as skip, vectors } from "../support/tlog-vectors.ts";

const v = vectors!;

/** A tile store over a map of paths, as the build's files or a client's fetches would be. */
const storeOf = (tiles: ReadonlyMap<string, Uint8Array>): TileStore => ({ read: async (path) => tiles.get(path) });

/** A log grown from nothing by appends of these sizes: its files, by path, and what each append said. */
async function grownLog(entries: readonly Uint8Array[], appends: readonly number[]) {
  const files = new Map<string, Uint8Array>();
  const results: Append[] = [];
  let size = 0;
  for (const count of appends) {
    const append = await appendEntries(storeOf(files), size, entries.slice(size, size + count));
    for (const [path, bytes] of append.files) files.set(path, bytes);
    results.push(append);
    size += count;
  }
  return { files, results };
}

describe("tile paths (tlog-tiles, Merkle Tree)", () => {
  const cases: [Tile, string][] = [
    [{ level: 0, index: 0, width: 256 }, "tile/0/000"],
    [{ level: 0, index: 1, width: 44 }, "tile/0/001.p/44"],
    [{ level: 2, index: 999, width: 256 }, "tile/2/999"],
    [{ level: 0, index: 1000, width: 256 }, "tile/0/x001/000"],
    [{ level: 1, index: 1234067, width: 256 }, "tile/1/x001/x234/067"],
    [{ level: 63, index: 1_000_000_000, width: 1 }, "tile/63/x001/x000/x000/000.p/1"],
    [{ level: "entries", index: 5, width: 255 }, "tile/entries/005.p/255"],
  ];
  for (const [tile, path] of cases) {
    it(`writes ${path}, and reads it back`, () => {
      assert.equal(tilePath(tile), path);
      assert.deepEqual(parseTilePath(path), tile);
    });
  }
  const wrong = [
    "tile/0/1",
    "tile/00/000",
    "tile/64/000",
    "tile/0/000.p/256",
    "tile/0/000.p/0",
    "tile/0/000.p/044",
    "tile/0/x000/001",
    "tile/0/001/000",
    "tile/0/x001",
    "tile/entry/000",
    "tile/0/000/",
    "/tile/0/000",
    "tile/-1/000",
  ];
  for (const path of wrong) it(`names no tile at ${path}`, () => assert.equal(parseTilePath(path), undefined));

  it("lays out a tree of 70,000 as the spec's example says", () => {
    const tiles = newTiles(0, 70_000).filter((tile) => tile.level !== "entries");
    const count = (level: number, width: number) => tiles.filter((t) => t.level === level && t.width === width).length;
    assert.deepEqual([count(0, 256), count(0, 112), count(1, 256), count(1, 17), count(2, 1)], [273, 1, 1, 1, 1]);
    assert.equal(tiles.length, 277);
  });
  it("lays out a tree of 256 as a full level 0 tile and a level 1 tile of width 1", () => {
    assert.deepEqual(newTiles(0, 256).map(tilePath), ["tile/0/000", "tile/entries/000", "tile/1/000.p/1"]);
  });
  it("names only the tiles a growing tree adds or widens", () => {
    assert.deepEqual(newTiles(300, 300), []);
    assert.deepEqual(newTiles(300, 301).map(tilePath), ["tile/0/001.p/45", "tile/entries/001.p/45"]);
    assert.deepEqual(newTiles(511, 512).map(tilePath), ["tile/0/001", "tile/entries/001", "tile/1/000.p/2"]);
  });
});

describe("the tiles of the known 300-entry tree", { skip }, () => {
  it("are exactly the tiles and bundles Go's tlog serves, at the same paths", () => {
    assert.deepEqual(newTiles(0, 300).map(tilePath).sort(), [...v.tiles.keys()].sort());
  });
  const written = vectors && grownLog(vectors.entries, [300]);
  for (const path of vectors?.tiles.keys() ?? []) {
    it(`has the known bytes at ${path}`, async () => {
      const { files, results } = await written!;
      assert.deepEqual(files.get(path), v.tiles.get(path));
      assert.deepEqual(results[0]!.rootHash, v.roots.get(300));
    });
  }
  it("are the same whether the 300 entries come at once or in appends of any size", async () => {
    const { files, results } = await grownLog(v.entries, [1, 1, 253, 1, 1, 43]);
    for (const [path, bytes] of v.tiles) assert.deepEqual(files.get(path), bytes, path);
    assert.deepEqual(
      results.map((append) => append.rootHash),
      [1, 2, 255, 256, 257, 300].map((size) => v.roots.get(size)),
    );
  });
  it("reads the entries back from the bundles", () => {
    const bundles = [
      parseEntryBundle(v.tiles.get("tile/entries/000")!, 256),
      parseEntryBundle(v.tiles.get("tile/entries/001.p/44")!, 44),
    ];
    assert.deepEqual(
      bundles.flatMap((entries) => entries!),
      v.entries.slice(0, 300),
    );
  });
  it("will not bundle an entry whose length does not fit 16 bits", () => {
    assert.equal(entryBundle([new Uint8Array(0xffff)]).length, 0x10001);
    assert.throws(() => entryBundle([new Uint8Array(0x10000)]), RangeError);
  });
  it("refuses a bundle with another count of entries, or bytes after its last", () => {
    const bundle = v.tiles.get("tile/entries/001.p/44")!;
    assert.equal(parseEntryBundle(bundle, 45), undefined);
    assert.equal(parseEntryBundle(bundle.subarray(0, -1), 44), undefined);
    assert.equal(parseEntryBundle(Uint8Array.from([...bundle, 0]), 44), undefined);
  });
});

describe("a client reading the served tiles", { skip }, () => {
  const served = new TileHashes(storeOf(vectors?.tiles ?? new Map()), 300);
  it("computes the known root", async () => {
    assert.deepEqual(await treeRoot(served, 300), v.roots.get(300));
    for (const size of [1, 2, 255, 256, 257]) assert.deepEqual(await treeRoot(served, size), v.roots.get(size));
  });
  it("computes the known proofs", async () => {
    for (const { index, treeSize, proof } of v.inclusionProofs.filter((p) => p.treeSize <= 300))
      assert.deepEqual(
        await inclusionProof(served, index, treeSize),
        await inclusionProof(v.tree, index, treeSize),
        `${proof}`,
      );
    assert.deepEqual(await consistencyProof(served, 257, 300), await consistencyProof(v.tree, 257, 300));
  });
  it("says which tile is missing or of the wrong length", async () => {
    const lacking = new Map(v.tiles);
    lacking.delete("tile/0/001.p/44");
    await assert.rejects(
      treeRoot(new TileHashes(storeOf(lacking), 300), 300),
      (e: TileError) => e.path === "tile/0/001.p/44",
    );
    const cut = new Map(v.tiles).set("tile/0/000", v.tiles.get("tile/0/000")!.subarray(32));
    // The root of 300 takes the first 256 entries' hash from tile/1/000.p/1; that of 255 reads tile/0/000.
    await assert.rejects(treeRoot(new TileHashes(storeOf(cut), 300), 255), TileError);
  });
  it("grows the log from its tiles to the known root and proofs of 600 entries", async () => {
    const append = await appendEntries(storeOf(v.tiles), 300, v.entries.slice(300));
    assert.deepEqual([append.size, append.rootHash], [600, v.roots.get(600)]);
    const grown = new TileHashes(storeOf(new Map([...v.tiles, ...append.files])), 600);
    assert.deepEqual(await treeRoot(grown, 513), v.roots.get(513));
    assert.deepEqual(await inclusionProof(grown, 511, 600), await inclusionProof(v.tree, 511, 600));
    assert.deepEqual(await consistencyProof(grown, 300, 600), await consistencyProof(v.tree, 300, 600));
    const bundle = parseEntryBundle(append.files.get("tile/entries/001")!, 256);
    assert.deepEqual(bundle, v.entries.slice(256, 512), "the partial bundle's 44 entries are carried over");
  });
  it("will not append without the old log's partial bundle", async () => {
    const lacking = new Map(v.tiles);
    lacking.delete("tile/entries/001.p/44");
    await assert.rejects(appendEntries(storeOf(lacking), 300, v.entries.slice(300, 301)), TileError);
  });
});

describe("auditing a hostile checkpoint", () => {
  it("stops at the first missing tile of a huge tree, listing none of its tiles", async () => {
    // Listing the 2^32 tiles of a tree of 2^40 entries first exhausted the heap: a monitor crashed on one checkpoint.
    assert.deepEqual(await auditLog(storeOf(new Map()), 2 ** 40, new Uint8Array(32)), {
      ok: false,
      path: "tile/0/000",
      reason: "missing",
    });
  });
});

describe("auditing the known 300-entry log", { skip }, () => {
  const root = vectors?.roots.get(300) ?? new Uint8Array(32);
  /** The served tiles with the file at `path` replaced (or removed, with undefined). */
  function changed(path: string, bytes?: Uint8Array) {
    const tiles = new Map(v.tiles);
    if (bytes === undefined) tiles.delete(path);
    else tiles.set(path, bytes);
    return storeOf(tiles);
  }
  it("passes, and hands over every entry, bundle by bundle, each once proven", async () => {
    const visited: [string, readonly Uint8Array[]][] = [];
    const audit = await auditLog(storeOf(v.tiles), 300, root, (entries, path) => visited.push([path, entries]) > 0);
    assert.equal(audit.ok, true);
    assert.deepEqual(
      visited.map(([path]) => path),
      ["tile/entries/000", "tile/entries/001.p/44"],
    );
    assert.deepEqual(
      visited.flatMap(([, entries]) => entries),
      v.entries.slice(0, 300),
    );
  });
  it("names an edited old entry's bundle: its entries are not those its tile hashes", async () => {
    const bundle = v.tiles.get("tile/entries/000")!.slice();
    bundle[40]! ^= 1;
    assert.deepEqual(await auditLog(changed("tile/entries/000", bundle), 300, root), {
      ok: false,
      path: "tile/entries/000",
      reason: "mismatch",
    });
  });
  it("stops where the visitor refuses a bundle, and reads no bundle after it", async () => {
    const read: string[] = [];
    const store = {
      read: async (path: string) => {
        read.push(path);
        return v.tiles.get(path);
      },
    };
    assert.deepEqual(await auditLog(store, 300, root, () => false), {
      ok: false,
      path: "tile/entries/000",
      reason: "refused",
    });
    assert.equal(read.at(-1), "tile/entries/000");
  });
  it("names a missing or malformed bundle, and a missing or edited tile", async () => {
    const cases: [string, Uint8Array | undefined, string][] = [
      ["tile/entries/001.p/44", undefined, "missing"],
      ["tile/entries/001.p/44", v.tiles.get("tile/entries/001.p/44")!.subarray(1), "malformed"],
      ["tile/1/000.p/1", undefined, "missing"],
      ["tile/1/000.p/1", v.roots.get(257)!, "mismatch"],
      ["tile/0/001.p/44", v.tiles.get("tile/0/001.p/44")!.subarray(32), "malformed"],
    ];
    for (const [path, bytes, reason] of cases)
      assert.deepEqual(await auditLog(changed(path, bytes), 300, root), { ok: false, path, reason });
  });
  it("refuses a log whose files agree with each other but not with the checkpoint", async () => {
    assert.deepEqual(await auditLog(storeOf(v.tiles), 300, v.roots.get(600)!), {
      ok: false,
      path: "checkpoint",
      reason: "mismatch",
    });
  });
});
