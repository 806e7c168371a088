/**
 * What the handler needs from storage: one lookup per UMID. Implementations decide where
 * records live (a sharded static index beside the body files, or
 * Workers KV for very large registries) and must never return a body that does not match
 * its ETag: they answer `corrupt` instead.
 */
export type ResolverRecord =
  | { kind: "manifest"; etag: string; body: Uint8Array<ArrayBuffer> }
  | { kind: "redirect"; location: string }
  | { kind: "revoked" }
  | { kind: "corrupt" };

export interface RecordStore {
  /** The record for `umid`, or `undefined` when the UMID is unknown. */
  get(umid: string): Promise<ResolverRecord | undefined>;
}

/**
 * The record index the build writes: records split over 16^3 = 4096 shard files,
 * `index/<first three lower-case hex digits of SHA-256(UMID)>.json`, each
 * `{"format": 1, "records": {UMID: RecordEntry}}`. The layout is fixed, so a lookup needs
 * no table of contents: one shard read finds any UMID (a missing shard holds no records).
 * Lower-case hex names survive case-insensitive hosts; 4096 shards keep each under ~250
 * records (~40 KB) at a million manifests. Paths in entries are relative to the output root.
 */
export const INDEX_FORMAT = 1;
export const SHARD_HEX_DIGITS = 3;

export function shardPath(umidSha256Hex: string): string {
  return `index/${umidSha256Hex.slice(0, SHARD_HEX_DIGITS)}.json`;
}

export interface IndexShard {
  format: typeof INDEX_FORMAT;
  records: Record<string, RecordEntry>;
}

export type RecordEntry =
  | { file: string; etag: string }
  | { redirect: string }
  | { revoked: true };

/** Written beside the index: what was built. It also marks a folder as build output. */
export const BUILD_INFO_PATH = "resolver.json";
