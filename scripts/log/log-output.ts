/**
 * What a build publishes of the content's transparency log (issue 26, section 4): when the content keeps a log that
 * opens (its checkpoint verifies, its tiles audit: log-folder.ts, openContentLog), its published files
 * (published-log.ts), as routes of the route table (scripts/plan/routes.ts): the C2SP tlog-tiles resources under
 * `LOG_PREFIX/`, each stored as a file of the output under `log/` but the checkpoint (storedLogFile). A log that does
 * not open is the gate's to refuse (log-gate.ts): none of it is served. The tiles are read once here; nothing is done
 * per manifest.
 *
 * Tiles keep their tlog-tiles path, whose 3-digit groups keep any folder under 1,001 names; a bucket, served at
 * `latest/<size>/<j>`, is stored with j in the same groups, since a log of ten million UMIDs has 65,536 buckets of one
 * size, more than Netlify takes in one folder. The verifier key is not served: a client must get it out of band,
 * never from the log it checks.
 */
import { LOG_BUCKET, LOG_CHECKPOINT, LOG_PARTIAL_TILE, LOG_TILE, type ServedKind } from "../../core/served-kinds.ts";
import { indexPath, parseTilePath, TILE_WIDTH } from "../../core/tlog/tile.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import type { Route } from "../plan/routes.ts";
import type { ContentLog } from "./log-folder.ts";
import { CHECKPOINT_FILE } from "./log-folder.ts";
import { publishedLog } from "./published-log.ts";

/** The folder of the output (and the prefix of the Workers KV keys) the log's files are stored under. */
const LOG_OUTPUT_FOLDER = "log";

export async function logRoutes(log: ContentLog | undefined): Promise<Route[]> {
  if (log === undefined || !log.opened.ok) return [];
  return Array.from(await publishedLog(log.dir, log.opened), ([path, bytes]) => ({
    path: `${LOG_PREFIX}/${path}`,
    bytes,
    ...storedLogFile(path),
  }));
}

const BUCKET_PATH = /^latest\/(0|[1-9][0-9]{0,15})\/(0|[1-9][0-9]{0,15})$/;

/**
 * Where the file the log serves at `path` (under its prefix) is stored, and how it is served. The checkpoint is the
 * one whose bytes change under one path: it is stored under its digest (plan/routes.ts), so that a shard of the route
 * table and a document are never two builds' (a Workers KV namespace holds both builds' pairs while its writes
 * spread), and a shard routes to its own build's checkpoint, whole.
 */
export function storedLogFile(path: string): { stored?: string; served: ServedKind } {
  if (path === CHECKPOINT_FILE) return { served: LOG_CHECKPOINT };
  const tile = parseTilePath(path);
  if (tile !== undefined)
    return { stored: `${LOG_OUTPUT_FOLDER}/${path}`, served: tile.width === TILE_WIDTH ? LOG_TILE : LOG_PARTIAL_TILE };
  const bucket = BUCKET_PATH.exec(path);
  if (bucket === null || !Number.isSafeInteger(Number(bucket[2]))) throw new Error(`the log serves no file at ${path}`);
  return {
    stored: `${LOG_OUTPUT_FOLDER}/latest/${bucket[1]}/${indexPath(Number(bucket[2]))}`,
    served: LOG_BUCKET,
  };
}
