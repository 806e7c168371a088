/**
 * A worker thread of the manifest pool: checks batches of files with the same code as the
 * main thread (manifest-check.ts) and sends the results back, bodies transferred, not copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { checkManifestFile, type CheckedManifest, type ManifestContext } from "./manifest-check.ts";
import type { WorkerBatch, WorkerInit } from "./manifest-pool.ts";

const init = workerData as WorkerInit;
const context: ManifestContext = {
  settings: init.settings,
  now: new Date(init.now),
  strict: init.strict,
  pins: init.pins && { file: init.pins.file, keys: new Map(init.pins.keys) },
  unsigned: { ...init.unsigned, entries: new Map(init.unsigned.entries) },
};

parentPort!.on("message", ({ start, paths }: WorkerBatch) => {
  const results: CheckedManifest[] = paths.map((path) => checkManifestFile(path, context, init.withBody));
  const transfer = results.flatMap((r) => (r.body ? [r.body.buffer as ArrayBuffer] : []));
  parentPort!.postMessage({ start, results }, transfer);
});
parentPort!.postMessage("ready");
