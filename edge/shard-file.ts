/**
 * The layout both sharded tables the build writes share, the record index (records.ts) and the route table
 * (route-table.ts): a key's shard is named by the top bits of a hash of the key, and each shard is one file,
 * `{"format": N, MEMBER: {KEY: ENTRY}}`, read by the one reader here.
 */
import { utf8 } from "../core/base64url.ts";
import type { LruCache } from "../core/lru-cache.ts";

/** Shards are named by the top 12 bits of the hash: three hex digits. */
export const SHARD_BITS = 12;

/**
 * The name of `key`'s shard: the top 12 bits of its hash, as three lower-case hex digits. The hash only spreads keys
 * (it guards nothing), so a fast synchronous one serves. The build also names the folder of a UMID's body by it
 * (scripts/plan/body-names.ts).
 */
export function shardOf(key: string): string {
  return shardName(fnv1a32(key) >>> (32 - SHARD_BITS));
}

/** The name of every shard a table can have, in order. */
export function everyShardName(): string[] {
  return Array.from({ length: 1 << SHARD_BITS }, (_, index) => shardName(index));
}

function shardName(index: number): string {
  return index.toString(16).padStart(SHARD_BITS / 4, "0");
}

/** The 32-bit FNV-1a hash of a string's UTF-8 bytes, unsigned. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  // An ASCII character is its own UTF-8 byte: most keys are hashed without encoding them.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return fnv1a32Bytes(utf8(text));
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash >>> 0;
}

function fnv1a32Bytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}

/**
 * The entries of a shard's bytes, by key, as stored, or why the bytes are no shard of `format` with its entries in
 * `member`. An entry is judged by whoever uses it: one entry's fault is its key's, not the whole shard's.
 */
export function readShardFile(
  bytes: Uint8Array,
  format: number,
  member: string,
): Map<string, unknown> | { problem: string } {
  let shard: unknown;
  try {
    shard = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return { problem: `not JSON text: ${(error as Error).message}` };
  }
  const fields = (isObject(shard) ? shard : {}) as Record<string, unknown>;
  if (fields.format !== format)
    return { problem: `format ${JSON.stringify(fields.format ?? null)}, expected ${format}` };
  const entries = fields[member];
  if (!isObject(entries)) return { problem: `its ${member} are not an object` };
  return new Map(Object.entries(entries));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A shard's entries as read: each is judged when it is looked up. */
export type ShardEntries = Map<string, unknown>;

/** How a deploy's shards of one table are read and kept. */
export interface ShardSource {
  cache: LruCache<Promise<ShardEntries>>;
  /** A file of the deploy: its bytes, or undefined when there is none. */
  read: (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;
  format: number;
  member: string;
  /** A rough size of one parsed entry, in bytes. */
  entryBytes: number;
}

/**
 * The shard at `path`, read once and kept; concurrent first requests share one read. A missing shard holds no
 * entries; a read that fails, or bytes that are no shard, throw and are not kept: the next request reads again.
 */
export function cachedShard(
  path: string,
  { cache, read, format, member, entryBytes }: ShardSource,
): Promise<ShardEntries> {
  let shard = cache.get(path);
  if (shard === undefined) {
    const loading = read(path).then((bytes) => {
      if (bytes === undefined) return new Map<string, unknown>();
      const entries = readShardFile(bytes, format, member);
      if ("problem" in entries) throw new Error(`${path} is no shard of this table: ${entries.problem}`);
      return entries;
    });
    shard = loading;
    // Sized once read: until then it counts as nothing.
    cache.set(path, loading, 0);
    loading.then(
      (entries) => cache.resize(path, loading, entries.size * entryBytes),
      () => cache.delete(path, loading),
    );
  }
  return shard;
}
