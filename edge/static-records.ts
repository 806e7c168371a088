/**
 * A RecordStore over the build's static output: the sharded record index and one body
 * file per manifest, read through the host's static-asset layer, the did:web
 * documents' table (edge/did-documents.ts), the transparency log's files (edge/log-files.ts) and the table of status
 * lists and discovery document (edge/well-known-documents.ts).
 *
 * Shards and bodies are read on first use and kept in bounded caches; a body is checked
 * against the ETag the build recorded before it is kept. A cold lookup costs at most two
 * sub-requests (its shard, its body), a warm one none. A deploy never changes its files,
 * so nothing here needs invalidation; a failed read is not cached and is retried.
 */
import { DID_DOCUMENTS_PATH, DidDocuments } from "./did-documents.ts";
import { etagOf } from "./etag.ts";
import { LogFiles } from "./log-files.ts";
import { WELL_KNOWN_PATH, WellKnownDocuments } from "./well-known-documents.ts";
import { LruCache } from "../core/lru-cache.ts";
import { isRecordEntry, readIndexShard, shardPath, type RecordStore, type ResolverRecord } from "./records.ts";

/** Reads one file of the build output: its bytes, or `undefined` when it does not exist. */
export type AssetReader = (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

const BODY_CACHE_BYTES = 16 * 1024 * 1024;
const SHARD_CACHE_BYTES = 16 * 1024 * 1024;

/** A shard's entries as read: each is judged (isRecordEntry) when it is looked up. */
type Shard = Map<string, unknown>;

export class StaticRecords {
  readonly #shards = new LruCache<Promise<Shard>>(SHARD_CACHE_BYTES);
  /** Each body kept with the ETag it was checked against: served only for an entry that names that ETag. */
  readonly #bodies = new LruCache<{ etag: string; body: Uint8Array<ArrayBuffer> }>(BODY_CACHE_BYTES);
  readonly #didDocuments = new DidDocuments();
  readonly #logFiles = new LogFiles();
  readonly #wellKnown = new WellKnownDocuments();

  /** A store for one request, reading through that request's asset reader. */
  reading(read: AssetReader): RecordStore {
    return {
      get: (umid) => this.#get(umid, read),
      didDocument: (path) => this.#didDocuments.get(path, () => read(DID_DOCUMENTS_PATH)),
      logFile: (stored) => this.#logFiles.get(stored, read),
      wellKnownDocument: (path) => this.#wellKnown.get(path, () => read(WELL_KNOWN_PATH)),
    };
  }

  async #get(umid: string, read: AssetReader): Promise<ResolverRecord | undefined> {
    const entry: unknown = (await this.#shard(shardPath(umid), read)).get(umid);
    if (entry === undefined) return undefined;
    if (!isRecordEntry(entry)) {
      console.error(`manifest-resolver: the index entry of ${JSON.stringify(umid)} is not one the build writes`);
      return { kind: "corrupt" };
    }
    if ("redirect" in entry) return { kind: "redirect", location: entry.redirect };
    if ("revoked" in entry) return { kind: "revoked", status: entry.status };

    const cached = this.#bodies.get(entry.file);
    if (cached?.etag === entry.etag)
      return { kind: "manifest", etag: entry.etag, body: cached.body, status: entry.status };
    const body = await read(entry.file);
    if (body === undefined || (await etagOf(body)) !== entry.etag) {
      console.error(
        `manifest-resolver: ${entry.file} for ${JSON.stringify(umid)} is ` +
          `${body === undefined ? "missing" : "not the body that was built"}`,
      );
      return { kind: "corrupt" };
    }
    this.#bodies.set(entry.file, { etag: entry.etag, body }, body.byteLength);
    return { kind: "manifest", etag: entry.etag, body, status: entry.status };
  }

  /** The shard at `path`, read once; concurrent first requests share one read. */
  #shard(path: string, read: AssetReader): Promise<Shard> {
    let shard = this.#shards.get(path);
    if (shard === undefined) {
      shard = loadShard(path, read);
      // Sized once read: until then it counts as nothing.
      this.#shards.set(path, shard, 0);
      shard.then(
        // A rough size: a parsed record costs about 160 bytes.
        (map) => this.#shards.resize(path, shard!, map.size * 160),
        () => this.#shards.delete(path, shard),
      );
    }
    return shard;
  }
}

async function loadShard(path: string, read: AssetReader): Promise<Shard> {
  const bytes = await read(path);
  if (bytes === undefined) return new Map();
  const shard = readIndexShard(bytes);
  if ("problem" in shard) throw new Error(`${path} is no index shard: ${shard.problem}`);
  return shard;
}
