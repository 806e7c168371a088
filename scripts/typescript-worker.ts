/**
 * A worker thread running a TypeScript module. The CLI runs its TypeScript through tsx,
 * whose loader a worker thread does not inherit: the worker registers it before
 * importing the module.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

export function typescriptWorker(module: URL, options: WorkerOptions): Worker {
  const code = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(code, { ...options, eval: true });
}
