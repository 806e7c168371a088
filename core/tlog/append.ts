/**
 * Appending entries to a tiled log: from the tiles a log of `oldSize` entries already
 * serves, the files a log of the new size adds or widens (hash tiles and entry bundles, by
 * path) and its root hash. History is read, never rehashed: only the new entries and the
 * right edge of the tree are hashed, so an append costs what it adds, not the log's size.
 */
import { entryBundle, parseEntryBundle } from "./entry-bundle.ts";
import { type Hash, leafHash, treeRoot } from "./merkle.ts";
import { newTiles, TILE_WIDTH, tilePath } from "./tile.ts";
import { hashTileBytes, TileError, TileHashes, type TileStore } from "./tile-hashes.ts";
import { TreeHashes } from "./tree-hashes.ts";

export interface Append {
  size: number;
  rootHash: Hash;
  /** The tiles and entry bundles to write, by path under the log's prefix. */
  files: Map<string, Uint8Array>;
}

export async function appendEntries(
  store: TileStore,
  oldSize: number,
  entries: readonly Uint8Array[],
): Promise<Append> {
  const tree = new TreeHashes(entries.map(leafHash), new TileHashes(store, oldSize), oldSize);
  // The last bundle of the old log is partial unless the old size is a multiple of 256: the
  // bundle that replaces it starts with its entries.
  const bundled = [...(await partialBundle(store, oldSize)), ...entries];
  const firstIndex = Math.floor(oldSize / TILE_WIDTH);
  const files = new Map<string, Uint8Array>();
  for (const tile of newTiles(oldSize, tree.size)) {
    const path = tilePath(tile);
    if (tile.level !== "entries") files.set(path, await hashTileBytes(tree, { ...tile, level: tile.level }));
    else {
      const start = (tile.index - firstIndex) * TILE_WIDTH;
      files.set(path, entryBundle(bundled.slice(start, start + tile.width)));
    }
  }
  return { size: tree.size, rootHash: await treeRoot(tree, tree.size), files };
}

async function partialBundle(store: TileStore, size: number): Promise<Uint8Array[]> {
  const width = size % TILE_WIDTH;
  if (width === 0) return [];
  const path = tilePath({ level: "entries", index: Math.floor(size / TILE_WIDTH), width });
  const bytes = await store.read(path);
  if (bytes === undefined) throw new TileError(path, "not found");
  const entries = parseEntryBundle(bytes, width);
  if (entries === undefined) throw new TileError(path, `not a bundle of ${width} entries`);
  return entries;
}
