/**
 * Checks many manifest files on every core: worker threads check batches while the main
 * thread takes the results, in file order, at the pace its consumer (the build's writer)
 * sets. Few files are checked on the main thread, one after another, where starting
 * workers would cost more than it saves.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import type { Settings } from "../config.ts";
import { typescriptWorker } from "../typescript-worker.ts";
import { checkManifestFile, type CheckedManifest, type ManifestContext } from "./manifest-check.ts";
import type { UnsignedOptIn, UnsignedOptIns } from "./unsigned.ts";

/** Below this many files, the main thread checks them alone. */
export const WORKER_THRESHOLD = 1000;
const BATCH = 256;
/** Results checked but not yet taken: the bound on what waits in memory. */
const MAX_WAITING = 8192;

/** A ManifestContext as a worker receives it: maps as entry lists. */
export interface WorkerInit {
  settings: Settings;
  now: string;
  strict: boolean;
  pins: { file: string; keys: [string, { spki: string; place: string }][] } | undefined;
  unsigned: Omit<UnsignedOptIns, "entries"> & { entries: [string, UnsignedOptIn][] };
  withBody: boolean;
}

/**
 * Files as names under one folder: a registry's million names cost far less memory than
 * its million paths, which are made only when a batch is sent.
 */
export interface FileSet {
  dir: string;
  names: readonly string[];
}

export interface WorkerBatch {
  start: number;
  paths: string[];
}

/** Receives each file's result, in the order of `names`, with its index there. */
export type ResultHandler = (result: CheckedManifest, index: number) => void | Promise<void>;

export async function checkManifestFiles(files: FileSet, context: ManifestContext, withBody: boolean, onResult: ResultHandler): Promise<void> {
  const workers = context.settings.workers;
  if (files.names.length < WORKER_THRESHOLD || workers === 0) {
    for (const [i, name] of files.names.entries()) await onResult(checkManifestFile(join(files.dir, name), context, withBody), i);
    return;
  }
  const { settings, now, strict, pins, unsigned } = context;
  const init: WorkerInit = {
    settings,
    now: now.toISOString(),
    strict,
    pins: pins && { file: pins.file, keys: [...pins.keys] },
    unsigned: { ...unsigned, entries: [...unsigned.entries] },
    withBody,
  };
  await new Pool(files, init, workers, onResult).run();
}

class Pool {
  readonly #waiting = new Map<number, CheckedManifest>();
  #next = 0;
  #dispatched = 0;
  #delivering = false;
  readonly #idle: Worker[] = [];
  readonly #workers: Worker[] = [];
  #settle!: { resolve: () => void; reject: (error: unknown) => void };

  constructor(
    readonly files: FileSet,
    readonly init: WorkerInit,
    readonly size: number,
    readonly onResult: ResultHandler,
  ) {}

  run(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => (this.#settle = { resolve, reject }));
    for (let i = 0; i < this.size; i++) this.#workers.push(this.#start());
    return done.finally(() => Promise.all(this.#workers.map((w) => w.terminate())));
  }

  #start(): Worker {
    const worker = typescriptWorker(new URL("manifest-worker.ts", import.meta.url), { workerData: this.init });
    worker.on("message", (message: "ready" | { start: number; results: CheckedManifest[] }) => {
      if (message !== "ready") message.results.forEach((result, i) => this.#waiting.set(message.start + i, result));
      this.#idle.push(worker);
      void this.#deliver();
    });
    worker.on("error", (error) => this.#settle.reject(error));
    return worker;
  }

  /** Hands results to onResult in file order, then gives idle workers more work. */
  async #deliver(): Promise<void> {
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let result = this.#waiting.get(this.#next); result !== undefined; result = this.#waiting.get(this.#next)) {
        this.#waiting.delete(this.#next);
        await this.onResult(result, this.#next++);
        this.#dispatch();
      }
      this.#dispatch();
      if (this.#next === this.files.names.length) this.#settle.resolve();
    } catch (error) {
      this.#settle.reject(error);
    } finally {
      this.#delivering = false;
    }
  }

  #dispatch(): void {
    const { dir, names } = this.files;
    while (this.#idle.length > 0 && this.#dispatched < names.length && this.#dispatched - this.#next < MAX_WAITING) {
      const start = this.#dispatched;
      this.#dispatched = Math.min(start + BATCH, names.length);
      const paths = names.slice(start, this.#dispatched).map((name) => join(dir, name));
      this.#idle.pop()!.postMessage({ start, paths } satisfies WorkerBatch);
    }
  }
}
