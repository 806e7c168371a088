/**
 * A worker thread of the manifest pool: checks batches of files with the same code as the
 * main thread (manifest-check.ts) and sends the results back, bodies transferred, not copied.
 */
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { KnownKeys } from "../cache/known-keys.ts";
import type { Alias } from "../cache/verification-cache.ts";
import type { CheckedManifest } from "./checked-manifest.ts";
import { checkManifestFile, type ManifestContext } from "./manifest-check.ts";
import type { WorkerBatch, WorkerInit, WorkerResults } from "./manifest-pool.ts";

const init = workerData as WorkerInit;
const context: ManifestContext = {
  settings: init.settings,
  now: new Date(init.now),
  strict: init.strict,
  pins: init.pins && { file: init.pins.file, keys: new Map(init.pins.keys) },
  unsigned: { ...init.unsigned, entries: new Map(init.unsigned.entries) },
};

const cache = init.cache && {
  scope: init.cache.scope,
  known: new KnownKeys(init.cache.table),
  usable: init.cache.usable,
  source: init.cache.source,
};

parentPort!.on("message", ({ start, names }: WorkerBatch) => {
  const positions = new Int32Array(names.length);
  const checked: CheckedManifest[] = [];
  const aliases: [number, Alias][] = [];
  names.forEach((name, i) => {
    const result = checkManifestFile(join(init.dir, name), context, cache && { ...cache, name });
    positions[i] = "position" in result ? result.position : -1;
    if (!("position" in result)) checked.push(result);
    else if (result.alias !== undefined) aliases.push([i, result.alias]);
  });
  const transfer = [
    positions.buffer,
    ...checked.flatMap((r) =>
      r.state === "valid" && r.body.kind === "bytes" ? [r.body.bytes.buffer as ArrayBuffer] : [],
    ),
  ];
  parentPort!.postMessage({ start, positions, checked, aliases } satisfies WorkerResults, transfer);
});
parentPort!.postMessage("ready");
