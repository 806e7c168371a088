/**
 * The transparency log the build publishes (issue 26; docs/transparency-log.md), as the edge serves it: the C2SP
 * tlog-tiles resources under `LOG_PREFIX/` (the signed checkpoint, the tiles and entry bundles of its tree, and the
 * latest map's bucket files), each stored as one file of the output under `log/`, whose name is also its Workers KV
 * key (no UMID's key starts so: those start `um:` or `um-sha256:`). Tiles keep their tlog-tiles path, whose 3-digit
 * groups keep any folder under 1,001 names; a bucket, at `latest/<size>/<j>`, is stored with j in the same groups,
 * since a log of ten million UMIDs has 65,536 buckets of one size, more than Netlify takes in one folder.
 *
 * Only the paths the log serves are looked up: any other path under the prefix, a traversal, the verifier key (which
 * a client must get out of band, never from the log it checks) is a 404 without a read. Every file verifies on its
 * own (the checkpoint is signed, the tiles hash to its root, a bucket proves its leaf), so its ETag is the digest of
 * the bytes read, computed when first read and kept with them.
 */
import { LruCache } from "../core/lru-cache.ts";
import { indexPath, parseTilePath, TILE_WIDTH, tilePath } from "../core/tlog/tile.ts";
import { LOG_PREFIX } from "../core/umid-path.ts";
import { etagOf } from "./etag.ts";

/** Where the log's files are served: each at its path under this. */
export const LOG_FILES_PREFIX = `${LOG_PREFIX}/`;
/** The folder of the output (and the prefix of the Workers KV keys) the log's files are stored under. */
export const LOG_OUTPUT_FOLDER = "log";

/** What a served path names: how long it may be cached follows (edge/responses.ts, logFileAnswer). */
export type LogFileKind = "checkpoint" | "partial-tile" | "tile" | "bucket";

export interface LogFile {
  kind: LogFileKind;
  /** The file of the output, and the Workers KV key, it is stored as. */
  stored: string;
}

export interface LogFileRecord {
  etag: string;
  body: Uint8Array<ArrayBuffer>;
}

const BUCKET_PATH = /^latest\/(0|[1-9][0-9]{0,15})\/(0|[1-9][0-9]{0,15})$/;

/** The file the log serves at `path` (under LOG_FILES_PREFIX), or undefined when it serves none there. */
export function logFileAt(path: string): LogFile | undefined {
  if (path === "checkpoint") return { kind: "checkpoint", stored: `${LOG_OUTPUT_FOLDER}/checkpoint` };
  const tile = parseTilePath(path);
  // Only a tile's one spelling: a file is never reached by two paths.
  if (tile !== undefined && tilePath(tile) === path)
    return { kind: tile.width === TILE_WIDTH ? "tile" : "partial-tile", stored: `${LOG_OUTPUT_FOLDER}/${path}` };
  const bucket = BUCKET_PATH.exec(path);
  if (bucket === null || !Number.isSafeInteger(Number(bucket[2]))) return undefined;
  return { kind: "bucket", stored: `${LOG_OUTPUT_FOLDER}/latest/${bucket[1]}/${indexPath(Number(bucket[2]))}` };
}

/** Where the build stores the file the log serves at `path`: the one place build and edge agree on it. */
export function storedLogFile(path: string): string {
  const file = logFileAt(path);
  if (file === undefined) throw new Error(`the log serves no file at ${path}`);
  return file.stored;
}

const CACHE_BYTES = 8 * 1024 * 1024;

/** The log's files of one deploy, each read on first use and kept with its ETag; a missing file is not kept. */
export class LogFiles {
  readonly #files = new LruCache<LogFileRecord>(CACHE_BYTES);

  /** The file stored as `stored`; `read` gives its bytes, or undefined when the build wrote none. */
  async get(
    stored: string,
    read: (stored: string) => Promise<Uint8Array<ArrayBuffer> | undefined>,
  ): Promise<LogFileRecord | undefined> {
    const cached = this.#files.get(stored);
    if (cached !== undefined) return cached;
    const body = await read(stored);
    if (body === undefined) return undefined;
    const file = { etag: await etagOf(body), body };
    this.#files.set(stored, file, body.byteLength + stored.length);
    return file;
  }
}
