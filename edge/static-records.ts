/**
 * A RecordStore over the build's static output: the sharded record index and one body file per manifest, and every
 * other file of the output by its name (the route table's shards and the documents they route: routed-documents.ts),
 * read through the host's static-asset layer.
 *
 * Shards and bodies are read on first use and kept in bounded caches; a body is checked against the ETag the build
 * recorded before it is kept (checked-files.ts). A cold lookup costs at most two sub-requests (its shard, its body), a
 * warm one none. A deploy never changes its files, so nothing here needs invalidation; a failed read is not cached and
 * is retried.
 */
import { LruCache } from "../core/lru-cache.ts";
import { CheckedFiles } from "./checked-files.ts";
import { INDEX_FORMAT, isRecordEntry, shardPath, type RecordStore, type ResolverRecord } from "./records.ts";
import { RoutedDocuments } from "./routed-documents.ts";
import { cachedShard, type ShardEntries } from "./shard-file.ts";

/** Reads one file of the build output: its bytes, or `undefined` when it does not exist. */
export type AssetReader = (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

const BODY_CACHE_BYTES = 16 * 1024 * 1024;
const SHARD_CACHE_BYTES = 16 * 1024 * 1024;

export class StaticRecords {
  readonly #shards = new LruCache<Promise<ShardEntries>>(SHARD_CACHE_BYTES);
  readonly #bodies = new CheckedFiles(BODY_CACHE_BYTES);
  readonly #routes = new RoutedDocuments();

  /** A store for one request, reading through that request's asset reader. */
  reading(read: AssetReader): RecordStore {
    return { get: (umid) => this.#get(umid, read), blob: read, routes: this.#routes };
  }

  async #get(umid: string, read: AssetReader): Promise<ResolverRecord | undefined> {
    // A rough size: a parsed record costs about 160 bytes.
    const source = { cache: this.#shards, read, format: INDEX_FORMAT, member: "records", entryBytes: 160 };
    const entry: unknown = (await cachedShard(shardPath(umid), source)).get(umid);
    if (entry === undefined) return undefined;
    if (!isRecordEntry(entry)) {
      console.error(`manifest-resolver: the index entry of ${JSON.stringify(umid)} is not one the build writes`);
      return { kind: "corrupt" };
    }
    if ("redirect" in entry) return { kind: "redirect", location: entry.redirect };
    if ("revoked" in entry) return { kind: "revoked", status: entry.status };

    const file = await this.#bodies.read(entry.file, entry.etag, read);
    if ("problem" in file) {
      console.error(`manifest-resolver: ${entry.file} for ${JSON.stringify(umid)} is ${file.problem}`);
      return { kind: "corrupt" };
    }
    return { kind: "manifest", etag: entry.etag, body: file.body, status: entry.status };
  }
}
