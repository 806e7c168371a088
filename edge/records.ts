/**
 * What the handler needs from storage: one lookup per UMID. Implementations decide where
 * records live (a static record map beside the body files today; a sharded index or
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
 * The record map the build writes at `RECORD_MAP_PATH` in the output directory. Paths are
 * relative to that directory.
 */
export const RECORD_MAP_PATH = "records.json";
export const RECORD_MAP_FORMAT = 1;

export interface RecordMap {
  format: typeof RECORD_MAP_FORMAT;
  records: Record<string, RecordEntry>;
}

export type RecordEntry =
  | { file: string; etag: string }
  | { redirect: string }
  | { revoked: true };
