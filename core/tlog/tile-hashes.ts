/**
 * Hash tiles: their bytes, written from any HashReader, and a HashReader over served
 * tiles, which is how a client computes roots and proofs from a tlog-tiles log. A hash at
 * a level between two tile levels is not served: it is folded from the tile's hashes.
 * The tiles are not trusted by reading them: what is computed from them is compared with a
 * signed checkpoint's root hash.
 */
import { HASH_SIZE, type Hash, type HashReader, nodeHash } from "./merkle.ts";
import { TILE_HEIGHT, TILE_WIDTH, type Tile, tilePath, tileWidth } from "./tile.ts";

/**
 * Where tiles and entry bundles are kept, by their path under the log's prefix: files for
 * the build, HTTP for a client; undefined for one that is not there.
 */
export interface TileStore {
  read(path: string): Promise<Uint8Array | undefined>;
}

/** A tile the store lacks, or whose length its width contradicts. */
export class TileError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** The bytes of hash tile `tile`: its hashes, concatenated. */
export async function hashTileBytes(reader: HashReader, tile: Tile & { level: number }): Promise<Uint8Array> {
  const bytes = new Uint8Array(tile.width * HASH_SIZE);
  for (let i = 0; i < tile.width; i++)
    bytes.set(await reader.subtreeHash(tile.level * TILE_HEIGHT, tile.index * TILE_WIDTH + i), i * HASH_SIZE);
  return bytes;
}

/** The hashes of the tree of `size` entries whose tiles `store` holds. */
export class TileHashes implements HashReader {
  private readonly tiles = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly store: TileStore,
    readonly size: number,
  ) {}

  async subtreeHash(level: number, index: number): Promise<Hash> {
    if ((index + 1) * 2 ** level > this.size) throw new RangeError(`no complete subtree at level ${level}, ${index}`);
    const tileLevel = Math.floor(level / TILE_HEIGHT);
    const count = 2 ** (level % TILE_HEIGHT);
    const first = index * count;
    const tileIndex = Math.floor(first / TILE_WIDTH);
    const bytes = await this.tile({
      level: tileLevel,
      index: tileIndex,
      width: tileWidth(tileLevel, tileIndex, this.size),
    });
    let hashes: Hash[] = [];
    for (let i = first - tileIndex * TILE_WIDTH; hashes.length < count; i++)
      hashes.push(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
    while (hashes.length > 1)
      hashes = hashes.flatMap((hash, i) => (i % 2 === 0 ? [nodeHash(hash, hashes[i + 1]!)] : []));
    return hashes[0]!;
  }

  /** Each tile is read once, and its length checked. */
  private tile(tile: Tile): Promise<Uint8Array> {
    const path = tilePath(tile);
    let bytes = this.tiles.get(path);
    if (bytes === undefined) {
      bytes = this.store.read(path).then((read) => {
        if (read === undefined) throw new TileError(path, "not found");
        if (read.length !== tile.width * HASH_SIZE)
          throw new TileError(path, `${read.length} bytes, not ${tile.width * HASH_SIZE}`);
        return read;
      });
      this.tiles.set(path, bytes);
    }
    return bytes;
  }
}
