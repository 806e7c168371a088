/**
 * Tile coordinates and paths, exactly as C2SP tlog-tiles lays them out: a tile of level L
 * holds up to 256 consecutive hashes of complete subtrees of 256^L entries (tile height
 * 8), served at `tile/<L>/<N>`, with `.p/<W>` for a partial tile of W hashes; an entry
 * bundle holds the entries of the level 0 tile of the same coordinates, at
 * `tile/entries/<N>[.p/<W>]`. N is written in 3-digit groups, all but the last prefixed
 * with `x` (1234067 is `x001/x234/067`), so the files sit in folders without conflicts.
 */

export const TILE_HEIGHT = 8;
/** Hashes in a full tile, entries in a full bundle. */
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

export interface Tile {
  /** The level (0 to 63), or "entries" for an entry bundle. */
  level: number | "entries";
  index: number;
  /** 1 to 256; 256 is a full tile. */
  width: number;
}

export function tilePath(tile: Tile): string {
  const partial = tile.width === TILE_WIDTH ? "" : `.p/${tile.width}`;
  return `tile/${tile.level}/${indexPath(tile.index)}${partial}`;
}

const TILE_PATH = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*)([0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/;

/** The tile at `path` (relative to the log's prefix), or undefined when tlog-tiles names none there. */
export function parseTilePath(path: string): Tile | undefined {
  const match = TILE_PATH.exec(path);
  if (match === null) return undefined;
  const [, levelText, groups, last, widthText] = match as unknown as [string, string, string, string, string?];
  const level = levelText === "entries" ? "entries" : Number(levelText);
  if (typeof level === "number" && level > 63) return undefined;
  // A leading x000 group would name the same tile as the path without it.
  if (groups.startsWith("x000/")) return undefined;
  const index = Number(groups.replaceAll("x", "").replaceAll("/", "") + last);
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if (!Number.isSafeInteger(index) || (widthText !== undefined && width >= TILE_WIDTH)) return undefined;
  return { level, index, width };
}

/**
 * N in zero-padded 3-digit groups, all but the last prefixed with `x`: at most 1,000 names in a folder, whatever N.
 * The build stores the latest map's buckets so too (scripts/log/log-output.ts).
 */
export function indexPath(index: number): string {
  let path = String(index % 1000).padStart(3, "0");
  for (let rest = Math.floor(index / 1000); rest > 0; rest = Math.floor(rest / 1000))
    path = `x${String(rest % 1000).padStart(3, "0")}/${path}`;
  return path;
}

/**
 * The tiles and entry bundles a tree of `newSize` entries serves that one of `oldSize`
 * does not (all of them when oldSize is 0): what a log writes when it grows. A partial
 * tile is never empty, and never hashed into the level above.
 */
export function newTiles(oldSize: number, newSize: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; TILE_WIDTH ** level <= newSize; level++) {
    const oldHashes = Math.floor(oldSize / TILE_WIDTH ** level);
    const newHashes = Math.floor(newSize / TILE_WIDTH ** level);
    for (let index = Math.floor(oldHashes / TILE_WIDTH); index * TILE_WIDTH < newHashes; index++) {
      const width = tileWidth(level, index, newSize);
      if (width === tileWidth(level, index, oldSize)) continue;
      tiles.push({ level, index, width });
      if (level === 0) tiles.push({ level: "entries", index, width });
    }
  }
  return tiles;
}

/** The width of tile `index` of `level` in a tree of `size` entries: 0 when that tree has none. */
export function tileWidth(level: number, index: number, size: number): number {
  return Math.max(0, Math.min(TILE_WIDTH, Math.floor(size / TILE_WIDTH ** level) - index * TILE_WIDTH));
}
