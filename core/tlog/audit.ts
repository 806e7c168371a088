/**
 * Auditing a whole tiled log against a checkpoint's size and root hash: every entry bundle
 * is read and hashed, the tree is rebuilt from its entries alone, and every hash tile and
 * the root must be what that tree says. An edited old entry, a tile that does not match
 * its bundle, or a rewritten tree all fail, and the first file found wrong is named. This
 * is what a gate runs before a build and a monitor runs over a served log.
 */
import { parseEntryBundle } from "./entry-bundle.ts";
import { type Hash, leafHash, sameHash, treeRoot } from "./merkle.ts";
import { newTiles, TILE_WIDTH, tilePath, tileWidth } from "./tile.ts";
import { hashTileBytes, type TileStore } from "./tile-hashes.ts";
import { TreeHashes } from "./tree-hashes.ts";

export type Audit =
  | { ok: true; entries: Uint8Array[] }
  /** `path` is the file found wrong, or "checkpoint" when the files agree but not with the root hash. */
  | { ok: false; path: string; reason: "missing" | "malformed" | "mismatch" };

export async function auditLog(store: TileStore, size: number, rootHash: Hash): Promise<Audit> {
  const entries: Uint8Array[] = [];
  // Bundle by bundle, not from a list of all the tree's tiles: a hostile log's checkpoint can claim 2^50 entries, and
  // the audit must stop at its first missing bundle, not first list billions of tiles.
  for (let index = 0; index * TILE_WIDTH < size; index++) {
    const width = tileWidth(0, index, size);
    const path = tilePath({ level: "entries", index, width });
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    const bundle = parseEntryBundle(bytes, width);
    if (bundle === undefined) return { ok: false, path, reason: "malformed" };
    entries.push(...bundle);
  }
  const tree = new TreeHashes(entries.map(leafHash));
  for (const tile of newTiles(0, size)) {
    if (tile.level === "entries") continue;
    const path = tilePath(tile);
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    if (!sameHash(bytes, await hashTileBytes(tree, { ...tile, level: tile.level })))
      return { ok: false, path, reason: "mismatch" };
  }
  if (!sameHash(await treeRoot(tree, size), rootHash)) return { ok: false, path: "checkpoint", reason: "mismatch" };
  return { ok: true, entries };
}
