/**
 * What the resolver serves of a verified log, by path under its prefix
 * (`/.well-known/manifest-resolver/log/`): the signed checkpoint, every tile and entry bundle
 * of the checkpoint's tree (files a killed `log` left past it are not part of the log), and
 * the latest map's bucket files at `latest/<size>/<bucket>`, which the build derives: they
 * are a function of the entries, so they are not kept in the content folder.
 */
import { bucketFile, bucketPath } from "../../core/tlog/latest-map.ts";
import { newTiles, tilePath } from "../../core/tlog/tile.ts";
import { CHECKPOINT_FILE, fileTileStore, type OpenedLog } from "./log-folder.ts";

export async function publishedLog(
  logDir: string,
  log: Extract<OpenedLog, { ok: true }>,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const { checkpoint, map, signedCheckpoint } = log;
  if (checkpoint === undefined || map === undefined || signedCheckpoint === undefined) return files;
  files.set(CHECKPOINT_FILE, signedCheckpoint);
  const store = fileTileStore(logDir);
  for (const tile of newTiles(0, checkpoint.size)) {
    const path = tilePath(tile);
    files.set(path, (await store.read(path))!);
  }
  for (let bucket = 0; bucket < map.buckets.length; bucket++)
    files.set(bucketPath(checkpoint.size, bucket), await bucketFile(map, bucket));
  return files;
}
