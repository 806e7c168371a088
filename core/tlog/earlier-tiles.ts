/**
 * Tiles and entry bundles of earlier tree sizes. A partial tile a log served with an earlier checkpoint (`.p/W`, W
 * less than the tile's width now) still answers clients that hold that checkpoint (a Workers KV namespace keeps every
 * one a deploy wrote); being of the same tree, it holds the first W hashes, or entries, of the tile of the same
 * coordinates now. A file past the tree (a partial wider than the tile now, as a run killed before its checkpoint
 * leaves) is not part of the log, and is not judged.
 */
import { entryBundle, parseEntryBundle } from "./entry-bundle.ts";
import { HASH_SIZE, sameHash } from "./merkle.ts";
import { parseTilePath, type Tile, tilePath, tileWidth } from "./tile.ts";
import type { TileStore } from "./tile-hashes.ts";

/**
 * The first of `paths` (under the log's prefix, as `store` holds them) that is a tile or bundle of an earlier size of
 * the tree of `size` entries, and not the start of the one now; undefined when there is none. The tiles now must have
 * been audited (audit.ts): they are the reference.
 */
export async function earlierTileFault(
  store: TileStore,
  paths: Iterable<string>,
  size: number,
): Promise<{ path: string; reason: "mismatch" } | undefined> {
  for (const path of paths) {
    const coordinates = widthNow(path, size);
    if (coordinates === undefined || coordinates.tile.width >= coordinates.width) continue;
    const { tile, width } = coordinates;
    const earlier = await store.read(path);
    const now = await store.read(tilePath({ ...tile, width }));
    if (earlier === undefined || now === undefined) continue;
    const start =
      tile.level === "entries"
        ? entryBundle(parseEntryBundle(now, width)!.slice(0, tile.width))
        : now.subarray(0, tile.width * HASH_SIZE);
    if (!sameHash(earlier, start)) return { path, reason: "mismatch" };
  }
  return undefined;
}

/**
 * Those of `paths` that are past the tree of `size` entries: a tile or bundle wider than the one of its coordinates
 * now, or of coordinates it has none at, which a run killed before its checkpoint leaves. An append of other entries
 * would make one an earlier size's that is not the start of the tile then, so the append removes them first.
 */
export function pastTree(paths: Iterable<string>, size: number): string[] {
  return [...paths].filter((path) => {
    const now = widthNow(path, size);
    return now !== undefined && now.tile.width > now.width;
  });
}

/** The tile or bundle at `path` (its own tlog-tiles path), and the width of the one of its coordinates in the tree. */
function widthNow(path: string, size: number): { tile: Tile; width: number } | undefined {
  const tile = parseTilePath(path);
  if (tile === undefined || tilePath(tile) !== path) return undefined;
  return { tile, width: tileWidth(tile.level === "entries" ? 0 : tile.level, tile.index, size) };
}
