/**
 * Auditing a whole tiled log against a checkpoint's size and root hash, as a gate runs it before a build and a monitor
 * over a host it does not trust. First the hash tiles, each read at the exact length its width gives: the level 0
 * tiles' hashes are the tree's leaves, and every higher tile and the root must be what that tree says. Then each
 * entry bundle, as it arrives: its entries must hash to the leaves its tile holds, so it is proven before any other
 * is read, handed to `visit`, and dropped. The audit keeps 32 bytes per entry, never the entries; a host that serves
 * inflated or edited bundles is refused at the first, having served at most one bundle's bound (maxBundleBytes). An
 * edited old entry, a tile that does not match its bundle, or a rewritten tree all fail, and the first file found
 * wrong is named.
 */
import { parseEntryBundle } from "./entry-bundle.ts";
import { HASH_SIZE, type Hash, leafHash, sameHash, treeRoot } from "./merkle.ts";
import { newTiles, TILE_WIDTH, tilePath, tileWidth } from "./tile.ts";
import { hashTileBytes, type TileStore } from "./tile-hashes.ts";
import { TreeHashes } from "./tree-hashes.ts";

export type Audit =
  /** `tree`: the hashes of the proven tree, for proofs against it without reading a tile again. */
  | { ok: true; tree: TreeHashes }
  /**
   * `path` is the file found wrong, or "checkpoint" when the tiles agree but not with the root hash; `refused`: a
   * proven bundle that `visit` refused, for a reason of its own.
   */
  | { ok: false; path: string; reason: "missing" | "malformed" | "mismatch" | "refused" };

/** Takes the entries of the bundle at `path`, in log order, once they are proven; false stops the audit. */
export type BundleVisitor = (entries: readonly Uint8Array[], path: string) => boolean;

export async function auditLog(
  store: TileStore,
  size: number,
  rootHash: Hash,
  visit: BundleVisitor = () => true,
): Promise<Audit> {
  const leaves = await leafHashes(store, size);
  if (!Array.isArray(leaves)) return leaves;
  const tree = new TreeHashes(leaves);
  for (const tile of newTiles(0, size)) {
    if (tile.level === "entries" || tile.level === 0) continue;
    const path = tilePath(tile);
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    if (!sameHash(bytes, await hashTileBytes(tree, { ...tile, level: tile.level })))
      return { ok: false, path, reason: "mismatch" };
  }
  if (!sameHash(await treeRoot(tree, size), rootHash)) return { ok: false, path: "checkpoint", reason: "mismatch" };
  for (let index = 0; index * TILE_WIDTH < size; index++) {
    const width = tileWidth(0, index, size);
    const path = tilePath({ level: "entries", index, width });
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    const entries = parseEntryBundle(bytes, width);
    if (entries === undefined) return { ok: false, path, reason: "malformed" };
    if (entries.some((entry, i) => !sameHash(leafHash(entry), leaves[index * TILE_WIDTH + i]!)))
      return { ok: false, path, reason: "mismatch" };
    if (!visit(entries, path)) return { ok: false, path, reason: "refused" };
  }
  return { ok: true, tree };
}

/**
 * The leaf hashes the level 0 tiles of a tree of `size` hold, or the first tile missing or of another length. Tile by
 * tile, not from a list of all the tree's tiles: a hostile checkpoint can claim 2^50 entries, and the audit must stop
 * at its first missing tile, not first list billions of them.
 */
async function leafHashes(store: TileStore, size: number): Promise<Hash[] | Extract<Audit, { ok: false }>> {
  const leaves: Hash[] = [];
  for (let index = 0; index * TILE_WIDTH < size; index++) {
    const width = tileWidth(0, index, size);
    const path = tilePath({ level: 0, index, width });
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    if (bytes.length !== width * HASH_SIZE) return { ok: false, path, reason: "malformed" };
    for (let i = 0; i < width; i++) leaves.push(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  }
  return leaves;
}
