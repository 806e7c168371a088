/**
 * A RecordStore over the build's static output: the record map and one body file per
 * manifest, read through the host's static-asset layer.
 *
 * The map is read once per isolate and kept; bodies are read on first use, checked
 * against the ETag the build recorded, and kept in a bounded cache, so a warm request
 * costs one map lookup and no sub-request. A deploy never changes its files, so nothing
 * here needs invalidation; a failed read is not cached and is retried by the next request.
 */
import { etagOf } from "./etag.ts";
import { RECORD_MAP_FORMAT, RECORD_MAP_PATH, type RecordEntry, type RecordMap, type RecordStore, type ResolverRecord } from "./records.ts";

/** Reads one file of the build output: its bytes, or `undefined` when it does not exist. */
export type AssetReader = (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

const DEFAULT_BODY_CACHE_BYTES = 16 * 1024 * 1024;

export class StaticRecords {
  #map: Promise<Map<string, RecordEntry>> | undefined;
  readonly #bodies: BodyCache;

  constructor(bodyCacheBytes = DEFAULT_BODY_CACHE_BYTES) {
    this.#bodies = new BodyCache(bodyCacheBytes);
  }

  /** A store for one request, reading through that request's asset reader. */
  reading(read: AssetReader): RecordStore {
    return { get: (umid) => this.#get(umid, read) };
  }

  async #get(umid: string, read: AssetReader): Promise<ResolverRecord | undefined> {
    const entry = (await this.#recordMap(read)).get(umid);
    if (entry === undefined) return undefined;
    if ("redirect" in entry) return { kind: "redirect", location: entry.redirect };
    if ("revoked" in entry) return { kind: "revoked" };

    const cached = this.#bodies.get(entry.file);
    if (cached !== undefined) return { kind: "manifest", etag: entry.etag, body: cached };
    const body = await read(entry.file);
    if (body === undefined || (await etagOf(body)) !== entry.etag) {
      console.error(`manifest-resolver: ${entry.file} for ${JSON.stringify(umid)} is ${body === undefined ? "missing" : "not the body that was built"}`);
      return { kind: "corrupt" };
    }
    this.#bodies.set(entry.file, body);
    return { kind: "manifest", etag: entry.etag, body };
  }

  #recordMap(read: AssetReader): Promise<Map<string, RecordEntry>> {
    this.#map ??= loadRecordMap(read).catch((error: unknown) => {
      this.#map = undefined;
      throw error;
    });
    return this.#map;
  }
}

async function loadRecordMap(read: AssetReader): Promise<Map<string, RecordEntry>> {
  const bytes = await read(RECORD_MAP_PATH);
  if (bytes === undefined) throw new Error(`${RECORD_MAP_PATH} is missing from the build output`);
  const map = JSON.parse(new TextDecoder().decode(bytes)) as RecordMap;
  if (map.format !== RECORD_MAP_FORMAT) throw new Error(`${RECORD_MAP_PATH} has format ${map.format}, expected ${RECORD_MAP_FORMAT}`);
  return new Map(Object.entries(map.records));
}

/** Least-recently-used bodies, bounded by total bytes. */
class BodyCache {
  readonly #entries = new Map<string, Uint8Array<ArrayBuffer>>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string): Uint8Array<ArrayBuffer> | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array<ArrayBuffer>): void {
    if (value.byteLength > this.maxBytes) return;
    const replaced = this.#entries.get(key);
    if (replaced !== undefined) this.#bytes -= replaced.byteLength;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#bytes += value.byteLength;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.byteLength;
    }
  }
}
