/**
 * The documents of one deploy's route table (route-table.ts), as the handler serves them: the row of a request path,
 * read from its one shard, and the stored bytes it names, checked against the row's ETag before they are served or
 * kept. Shards and documents are kept in bounded caches; a deploy never changes its files, so nothing here needs
 * invalidation, and a failed read is not kept and is retried. A cold lookup costs at most two reads (its shard, its
 * document), a warm one none.
 *
 * Which paths are looked up is decided here, from the paths of the contract (core/umid-path.ts), so that a UMID's
 * lookup costs no read of the table (but the first of a record store, which reads whether the deploy serves a log:
 * servesLog): a resolve path is one segment and a status path has its own prefix, and
 * neither is routed; any other path of more than one segment may have a row, and so may any path ending `/did.json`,
 * which a did:web document's path does wherever its DID puts it: `/did.json`, the one path of one segment a document
 * can have (a did:web's on a resolver below a base path: `did:web:host:base`), and one under the status endpoint's
 * prefix (`did:web:host:.well-known:manifest-resolver:status`). Their lookups cost the UMID `did.json` a read, and
 * its status one, as they always have.
 */
import { LruCache } from "../core/lru-cache.ts";
import { LOG_PREFIX, RESOLVERS_PATH, STATUS_LIST_PREFIX, STATUS_PREFIX } from "../core/umid-path.ts";
import { CheckedFiles, type CheckedFile } from "./checked-files.ts";
import { isRouteRow, ROUTES_FORMAT, routeShardPath, type RouteRow } from "./route-table.ts";
import { cachedShard, type ShardEntries } from "./shard-file.ts";

/** Reads a stored file of the deploy: its bytes, or undefined when there is none. */
export type BlobReader = (key: string) => Promise<Uint8Array<ArrayBuffer> | undefined>;

/** A routed document as served: its row and its bytes, or `corrupt` when either is not what the build wrote. */
export type RoutedDocument = { kind: "document"; row: RouteRow; body: Uint8Array<ArrayBuffer> } | { kind: "corrupt" };

/** How the path of every did:web document ends (did:web, "Read (Resolve)"). */
const DID_DOCUMENT_NAME = "/did.json";

/**
 * Whether the route table is asked for `pathname`: a path of two segments or more but a status endpoint's, or a
 * path ending `/did.json`.
 */
export function isRoutable(pathname: string): boolean {
  if (pathname.endsWith(DID_DOCUMENT_NAME)) return true;
  return pathname.indexOf("/", 1) !== -1 && pathname !== STATUS_PREFIX && !pathname.startsWith(`${STATUS_PREFIX}/`);
}

/**
 * Whether a routable path the table has no row for is answered 404: one of the resolver's own (the log's, a status
 * list's, the discovery document's). Any other, a `.../did.json` with no did:web document among them, is then read
 * as a UMID path would be.
 */
export function isOwnedPath(pathname: string): boolean {
  return (
    pathname === RESOLVERS_PATH ||
    pathname.startsWith(`${LOG_PREFIX}/`) ||
    pathname.startsWith(`${STATUS_LIST_PREFIX}/`)
  );
}

const SHARD_CACHE_BYTES = 4 * 1024 * 1024;
const FILE_CACHE_BYTES = 16 * 1024 * 1024;

/** The row whose presence says the deploy serves a transparency log: every log has a checkpoint. */
const LOG_CHECKPOINT_PATH = `${LOG_PREFIX}/checkpoint`;

export class RoutedDocuments {
  readonly #shards = new LruCache<Promise<ShardEntries>>(SHARD_CACHE_BYTES);
  readonly #files = new CheckedFiles(FILE_CACHE_BYTES);
  #servesLog: boolean | undefined;

  /**
   * Whether the deploy serves a transparency log: whether the table has a row for its checkpoint. The first call
   * reads that row's shard; the answer is then kept, as a deploy never changes its files, and costs no read. A read
   * that fails is logged, answered false and not kept.
   */
  async servesLog(blob: BlobReader): Promise<boolean> {
    if (this.#servesLog !== undefined) return this.#servesLog;
    try {
      this.#servesLog = (await this.#shard(LOG_CHECKPOINT_PATH, blob)).has(LOG_CHECKPOINT_PATH);
      return this.#servesLog;
    } catch (error) {
      console.error("manifest-resolver: whether the deploy serves a log cannot be read:", error);
      return false;
    }
  }

  #shard(path: string, blob: BlobReader): Promise<ShardEntries> {
    // A rough size: a parsed row costs about 300 bytes.
    const source = { cache: this.#shards, read: blob, format: ROUTES_FORMAT, member: "routes", entryBytes: 300 };
    return cachedShard(routeShardPath(path), source);
  }

  /** The document the table routes `path` to, read through `blob`; undefined when the table has no row for it. */
  async document(path: string, blob: BlobReader): Promise<RoutedDocument | undefined> {
    let row: unknown;
    try {
      row = (await this.#shard(path, blob)).get(path);
    } catch (error) {
      console.error(`manifest-resolver: the route of ${JSON.stringify(path)} cannot be read:`, error);
      return { kind: "corrupt" };
    }
    if (row === undefined) return undefined;
    if (!isRouteRow(row)) {
      console.error(`manifest-resolver: the route of ${JSON.stringify(path)} is not one the build writes`);
      return { kind: "corrupt" };
    }
    let file: CheckedFile;
    try {
      file = await this.#files.read(row.stored, row.etag, blob);
    } catch (error) {
      console.error(`manifest-resolver: ${row.stored} for ${JSON.stringify(path)} cannot be read:`, error);
      return { kind: "corrupt" };
    }
    if ("problem" in file) {
      console.error(`manifest-resolver: ${row.stored} for ${JSON.stringify(path)} is ${file.problem}`);
      return { kind: "corrupt" };
    }
    return { kind: "document", row, body: file.body };
  }
}
