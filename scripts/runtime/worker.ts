/**
 * A worker thread running one of the CLI's modules. From the sources, the CLI runs its
 * TypeScript through tsx, whose loader a worker thread does not inherit: the worker
 * registers it before importing the module. From the prebuilt CLI (tools/build-cli.ts), the
 * module is the bundle's entry point of the same name.
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { PREBUILT, PREBUILT_DIR } from "./tool-files.ts";

export function typescriptWorker(module: URL, options: WorkerOptions): Worker {
  if (PREBUILT) return new Worker(join(PREBUILT_DIR, basename(fileURLToPath(module)).replace(/\.ts$/, ".js")), options);
  const code = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(code, { ...options, eval: true });
}
