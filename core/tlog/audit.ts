/**
 * Auditing a whole tiled log against a checkpoint's size and root hash, as a gate runs it before a build and a monitor
 * over a host it does not trust. First the hash tiles, each read at the exact length its width gives: the level 0
 * tiles' hashes are the tree's leaves, and every higher tile and the root must be what that tree says. Then each
 * entry bundle, as it arrives: its entries must hash to the leaves its tile holds, so it is proven before any other
 * is read, handed to `visit`, and dropped. The audit keeps 32 bytes per entry, never the entries; a host that serves
 * inflated or edited bundles is refused at the first, having served at most one bundle's bound (maxBundleBytes). An
 * edited old entry, a tile that does not match its bundle, or a rewritten tree all fail, and the first file found
 * wrong is named.
 *
 * An audit can also start past a tree it trusts (`since`: its tiles are the ones an earlier audit proved, which the
 * caller has made sure of): then only the tiles and bundles that the tree of `size` adds or widens are read and
 * proven, over the trusted tree's right edge, and only the entries past it are visited. A log that grew by 20 entries
 * costs 20 entries, not the log.
 */
import { parseEntryBundle } from "./entry-bundle.ts";
import { HASH_SIZE, type Hash, leafHash, sameHash, treeRoot } from "./merkle.ts";
import { newTiles, TILE_WIDTH, tilePath, tileWidth } from "./tile.ts";
import { hashTileBytes, TileError, TileHashes, type TileStore } from "./tile-hashes.ts";
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

/**
 * Audits the tree of `size` entries against `rootHash`. With `since`, the first `since` entries' tiles are trusted,
 * and `visit` takes only the entries after them.
 */
export async function auditLog(
  store: TileStore,
  size: number,
  rootHash: Hash,
  visit: BundleVisitor = () => true,
  since = 0,
): Promise<Audit> {
  if (since > size) throw new RangeError(`a tree of ${size} entries cannot extend one of ${since}`);
  const base = since === 0 ? undefined : new TileHashes(store, since);
  const first = Math.floor(since / TILE_WIDTH);
  const leaves = await leafHashes(store, size, first);
  if (!Array.isArray(leaves)) return leaves;
  const offset = first * TILE_WIDTH;
  try {
    // The trusted entries that share the first tile read: that tile must start with the hashes trusted.
    for (let i = offset; i < since; i++)
      if (!sameHash(leaves[i - offset]!, await base!.subtreeHash(0, i)))
        return {
          ok: false,
          path: tilePath({ level: 0, index: first, width: tileWidth(0, first, size) }),
          reason: "mismatch",
        };
    const tree = new TreeHashes(leaves.slice(since - offset), base, since);
    for (const tile of newTiles(since, size)) {
      if (tile.level === "entries" || tile.level === 0) continue;
      const path = tilePath(tile);
      const bytes = await store.read(path);
      if (bytes === undefined) return { ok: false, path, reason: "missing" };
      if (!sameHash(bytes, await hashTileBytes(tree, { ...tile, level: tile.level })))
        return { ok: false, path, reason: "mismatch" };
    }
    if (!sameHash(await treeRoot(tree, size), rootHash)) return { ok: false, path: "checkpoint", reason: "mismatch" };
    for (let index = first; index * TILE_WIDTH < size; index++) {
      const width = tileWidth(0, index, size);
      const path = tilePath({ level: "entries", index, width });
      const bytes = await store.read(path);
      if (bytes === undefined) return { ok: false, path, reason: "missing" };
      const entries = parseEntryBundle(bytes, width);
      if (entries === undefined) return { ok: false, path, reason: "malformed" };
      if (entries.some((entry, i) => !sameHash(leafHash(entry), leaves[index * TILE_WIDTH + i - offset]!)))
        return { ok: false, path, reason: "mismatch" };
      if (!visit(entries.slice(Math.max(0, since - index * TILE_WIDTH)), path))
        return { ok: false, path, reason: "refused" };
    }
    return { ok: true, tree };
  } catch (error) {
    // A trusted tile that is not there after all: the caller's trust was misplaced, and the audit fails as any would.
    if (error instanceof TileError) return { ok: false, path: error.path, reason: "missing" };
    throw error;
  }
}

/**
 * The leaf hashes the level 0 tiles of a tree of `size` hold from tile `first` on, or the first tile missing or of
 * another length. Tile by tile, not from a list of all the tree's tiles: a hostile checkpoint can claim 2^50 entries,
 * and the audit must stop at its first missing tile, not first list billions of them.
 */
async function leafHashes(
  store: TileStore,
  size: number,
  first: number,
): Promise<Hash[] | Extract<Audit, { ok: false }>> {
  const leaves: Hash[] = [];
  for (let index = first; index * TILE_WIDTH < size; index++) {
    const width = tileWidth(0, index, size);
    const path = tilePath({ level: 0, index, width });
    const bytes = await store.read(path);
    if (bytes === undefined) return { ok: false, path, reason: "missing" };
    if (bytes.length !== width * HASH_SIZE) return { ok: false, path, reason: "malformed" };
    for (let i = 0; i < width; i++) leaves.push(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  }
  return leaves;
}
