/**
 * The route table: every document the resolver serves beside its manifests and statuses (did:web documents, status
 * lists, the discovery document, the transparency log's files, and whatever a later plan module adds), by the request
 * path the handler sees. A row names where the document is stored and how it is served:
 * `{"stored", "contentType", "cacheControl", "etag"}`, the ETag the build's digest of the stored bytes (etag.ts).
 *
 * A log of ten million entries has about 150,000 files, so the table is never read whole: its rows are split over
 * shard files `routes/<xyz>.json` by the same hash and layout as the record index (records.ts, `shardOf` of the
 * path), each `{"format": ROUTES_FORMAT, "routes": {PATH: ROW}}`; a shard where no path falls is not written, and a
 * lookup reads one shard. A shard's name is also its Workers KV key, and so is a row's `stored`: a file of the
 * output (no UMID's key starts as either: those start `um:` or `um-sha256:`).
 */
import { isEtag } from "./etag.ts";
import { shardOf } from "./shard-file.ts";

export const ROUTES_FORMAT = 1;
/** The folder of the output, and the prefix of the Workers KV keys, the route table's shards are stored under. */
export const ROUTES_FOLDER = "routes";

/** A row as the build writes it and the edge serves it. */
export interface RouteRow {
  /** The file of the output, and the Workers KV key, the document is stored as. */
  stored: string;
  contentType: string;
  cacheControl: string;
  etag: string;
}

/** The shard file that holds the row of request path `path`, if there is one. */
export function routeShardPath(path: string): string {
  return routeShardNamed(shardOf(path));
}

/** The shard file of the shard named `name` (shard-file.ts). */
export function routeShardNamed(name: string): string {
  return `${ROUTES_FOLDER}/${name}.json`;
}

/**
 * Whether `value` is a row the build writes: a stored name that stays inside the output, header values a host's
 * Response takes (printable ASCII, no space at either end), an ETag of the build's form. Any other is a corrupt
 * record, answered 500 and never served.
 */
export function isRouteRow(value: unknown): value is RouteRow {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    isStoredName(row.stored) && isHeaderValue(row.contentType) && isHeaderValue(row.cacheControl) && isEtag(row.etag)
  );
}

/** A relative `/`-separated name of URL-safe characters, with no empty, `.` or `..` step. */
function isStoredName(value: unknown): value is string {
  return (
    typeof value === "string" &&
    /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(value) &&
    value.split("/").every((step) => step !== "." && step !== "..")
  );
}

function isHeaderValue(value: unknown): value is string {
  return typeof value === "string" && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);
}
