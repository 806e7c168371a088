/**
 * The route table a build writes (edge/route-table.ts), from the routes each kind's plan module makes: the did:web
 * documents (did-documents.ts), the status lists and discovery document (status-lists.ts), the transparency log's
 * files (scripts/log/log-output.ts). A route is a request path, the bytes served there and how they are served; this
 * is the one place that turns routes into files of the output: each document's stored file, then the table's shards,
 * each row with the ETag of its bytes. Adding a kind of document is adding a plan module that makes routes; the edge
 * serves any row as it stands.
 *
 * A document with no stored name of its own is stored under its digest, `documents/<hex SHA-256>`: the name is a
 * function of the bytes alone, so it is safe on every host (no letter case, no character of a request path to
 * escape), stable from one build to the next while the bytes are, and two paths serving the same bytes share one
 * file. The log's files but its checkpoint keep theirs (`log/...`: scripts/log/log-output.ts), whose grouping keeps
 * folders small.
 */
import { createHash } from "node:crypto";
import { utf8 } from "../../core/base64url.ts";
import type { ServedKind } from "../../core/served-kinds.ts";
import { formatEtag } from "../../edge/etag.ts";
import { ROUTES_FORMAT, routeShardNamed, routeShardPath, type RouteRow } from "../../edge/route-table.ts";
import { isRoutable } from "../../edge/routed-documents.ts";
import { everyShardName } from "../../edge/shard-file.ts";
import type { OutputFile } from "./output-file.ts";

/** The folder of the output documents are stored in by their digest. */
const DOCUMENTS_FOLDER = "documents";

/** One document to serve, as a plan module makes it. */
export interface Route {
  /** The request path it is served at, as the edge sees it (a URL's pathname, percent-encoded as parsing leaves it). */
  path: string;
  bytes: Uint8Array;
  /** The file of the output (and Workers KV key) it is stored as; by default, named by its digest. */
  stored?: string;
  served: ServedKind;
}

/**
 * The files of the output that serve `routes`: each stored file once, in name order, then the route table's shards,
 * in name order, each with its rows in path order. The same routes, the same bytes.
 */
export function routeFiles(routes: Iterable<Route>): OutputFile[] {
  const stored = new Map<string, OutputFile>();
  const shards = new Map<string, [string, RouteRow][]>();
  for (const { path, bytes, stored: name, served } of routes) {
    // A plan module's mistake, never the content's: the edge would not ask the table for this path.
    if (!isRoutable(path))
      throw new Error(`a route's path must have two segments or more and no status's, or end /did.json: ${path}`);
    const digest = createHash("sha256").update(bytes).digest();
    const file = name ?? `${DOCUMENTS_FOLDER}/${digest.toString("hex")}`;
    const before = stored.get(file);
    if (before !== undefined && !Buffer.from(before.bytes).equals(bytes))
      throw new Error(`two routes store different bytes as ${file}`);
    // Its inputs are its bytes: a warm build whose output kept the same digest for it hashes it no more.
    stored.set(file, { path: file, bytes, inputs: digest.toString("hex") });
    const { contentType, cacheControl } = served;
    const row: RouteRow = { stored: file, contentType, cacheControl, etag: formatEtag(digest) };
    const shard = routeShardPath(path);
    const rows = shards.get(shard);
    if (rows === undefined) shards.set(shard, [[path, row]]);
    else if (rows.some(([other]) => other === path)) throw new Error(`two routes serve ${path}`);
    else rows.push([path, row]);
  }
  const byName = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);
  const files = [...stored].sort(byName).map(([, file]) => file);
  for (const [path, rows] of [...shards].sort(byName)) {
    const lines = rows.sort(byName).map(([at, row]) => `${JSON.stringify(at)}:${JSON.stringify(row)}`);
    files.push({ path, bytes: shardBytes(lines) });
  }
  return files;
}

function shardBytes(lines: readonly string[]): Uint8Array {
  return utf8(`{"format":${ROUTES_FORMAT},"routes":{\n${lines.join(",\n")}\n}}\n`);
}

/**
 * The route table's files (`files`, as routeFiles gives them) with an empty shard at every name they have none at, for
 * a store whose writes never remove a key (Workers KV's bulk uploads): a shard a build no longer writes would go on
 * routing paths the build no longer serves there, to documents still stored.
 */
export function withEveryRouteShard(files: readonly OutputFile[]): OutputFile[] {
  const written = new Set(files.map((file) => file.path));
  const empty = shardBytes([]);
  const all = [...files];
  for (const path of everyShardName().map(routeShardNamed)) if (!written.has(path)) all.push({ path, bytes: empty });
  return all;
}
