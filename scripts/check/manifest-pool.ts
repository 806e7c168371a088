/**
 * Checks many manifest files on every core: worker threads check batches while the main
 * thread takes the results, in file order, at the pace its consumer (the build's writer)
 * sets. Few files are checked on the main thread, one after another, where starting
 * workers would cost more than it saves. With the verification cache, the main thread
 * first finds the files known without reading them (by an alias: git's blob id, or their
 * status; file-identity.ts); every thread then reads and hashes the others, and checks
 * only those whose key no usable entry has; the main thread turns the entries found into
 * their results. A whole content root's files are first taken by shards
 * (summarised-shards.ts): those a summary knows are neither looked up nor read.
 */
import { join, relative, sep } from "node:path";
import type { Worker } from "node:worker_threads";
import type { Settings } from "../config.ts";
import type { Alias, UsableEntries } from "../cache/verification-cache.ts";
import type { IdentitySource } from "../cache/file-identity.ts";
import type { ShardSummaries } from "../cache/shard-summaries.ts";
import { typescriptWorker } from "../runtime/worker.ts";
import type { CheckedManifest } from "./checked-manifest.ts";
import { checkManifestFile, recall, type ManifestContext, type Recalled } from "./manifest-check.ts";
import type { UnsignedOptIn, UnsignedOptIns } from "./unsigned.ts";
import { SummarisedShards } from "./summarised-shards.ts";

/** Below this many files, the main thread checks them alone. */
export const WORKER_THRESHOLD = 1000;
const BATCH = 256;
/** Results checked but not yet taken: the bound on what waits in memory. */
const MAX_WAITING = 8192;
/**
 * A worker's young generation, smaller than V8's default: a check makes short-lived garbage at a high rate, and a
 * large young generation let each worker's resident memory grow far past what it holds. At 100,000 manifests, a cold
 * check's peak went from about 410 to 330 MB, for about 5% more time.
 */
const WORKER_YOUNG_MB = 16;

/** A ManifestContext as a worker receives it: maps as entry lists. */
export interface WorkerInit {
  settings: Settings;
  now: string;
  strict: boolean;
  pins: { file: string; keys: [string, { spki: string; place: string }][] } | undefined;
  unsigned: Omit<UnsignedOptIns, "entries"> & { entries: [string, UnsignedOptIn][] };
  dir: string;
  /** The scope of the cache's keys, the table of its keys, which may be used (shared memory), and how files are known. */
  cache?: { scope: string; table: Uint8Array; usable: Uint8Array; source: IdentitySource };
}

/**
 * The cache as a check uses it: the scope of its keys, the entries it may use, how this run knows files, what it
 * knows of a file without reading it (its git blob id, or its status), if anything, and the alias that makes; for a
 * check of a whole content root, the summaries of its shards.
 */
export interface CacheUse {
  scope: string;
  usable: UsableEntries;
  source: IdentitySource;
  identityOf(name: string): string | undefined;
  aliasOf(name: string, identity: string): Uint8Array;
  summaries?: ShardSummaries;
  /**
   * Settles once identityOf answers, for a cache that knows no file (a cold run, which looks none up): until then it
   * answers for none, and the workers check the files meanwhile.
   */
  ready?: Promise<void>;
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
  names: string[];
}

/**
 * What a worker sends back for a batch: for each file, the position of its cache entry,
 * or -1 for a file it checked, whose results follow in order. Most files of a warm run are
 * found: a number each, not an object.
 */
export interface WorkerResults {
  start: number;
  positions: Int32Array;
  checked: CheckedManifest[];
  /** The aliases of entries found by reading their files, by their files' positions in the batch. */
  aliases: [number, Alias][];
}

/** Receives each file's result, in the order of `names`, with its index there. */
export type ResultHandler = (result: CheckedManifest, index: number) => void | Promise<void>;
type PoolResultHandler = (result: CheckedManifest | Recalled, index: number) => void | Promise<void>;

/** `files.names` are the files' names in their content root, which their cache keys include. */
export async function checkManifestFiles(
  files: FileSet,
  context: ManifestContext,
  onResult: ResultHandler,
  cache?: CacheUse,
): Promise<void> {
  const workers = context.settings.workers;
  // As displayPath() names them, without a relative() per file.
  const shownDir = relative(process.cwd(), files.dir);
  const fileAt = (i: number) => (shownDir === "" ? files.names[i]! : `${shownDir}${sep}${files.names[i]!}`);
  const lookup = cache && {
    scope: cache.scope,
    known: cache.usable.known,
    usable: cache.usable.usable,
    source: cache.source,
  };
  const shardsOf = () =>
    cache?.summaries && new SummarisedShards(files.names, { ...cache, summaries: cache.summaries });
  // The summaries read git's blob ids (identityOf): a cold run's, when they come, before the first result is taken.
  let shards = cache?.ready === undefined ? shardsOf() : undefined;
  const shardsReady = cache?.ready?.then(() => {
    shards = shardsOf();
  });
  const checkHere = (i: number) => {
    const name = files.names[i]!;
    return checkManifestFile(join(files.dir, name), context, lookup && { ...lookup, name });
  };
  const recalling = (result: CheckedManifest | Recalled, i: number): void | Promise<void> => {
    if (!("position" in result)) {
      shards?.checked(i, result);
      return onResult(result, i);
    }
    const verdict = cache!.usable.verdictAt(result.position);
    // An entry of the wrong shape is no longer usable: its file is checked as if the cache had none.
    if (verdict === undefined) return recalling(checkHere(i), i);
    if (result.alias !== undefined) cache!.usable.learn(result.position, result.alias);
    shards?.recalled(i, result.position, result.alias);
    return onResult(recall(verdict, fileAt(i), context), i);
  };
  /** A file of a shard whose summary is there: known from it, or, should it turn out unusable, on its own. */
  const summarised = (i: number): void | Promise<void> => {
    const verdict = shards!.verdictOf(i);
    if (verdict !== undefined) return onResult(recall(verdict, fileAt(i), context), i);
    const position = knownPosition(files.names[i]!, cache!);
    return recalling(position >= 0 ? { position } : checkHere(i), i);
  };
  const known = knownPositions(files.names, cache, shards);
  const unknown = files.names.flatMap((_, i) => (known[i]! === UNKNOWN ? [i] : []));
  /** Delivers the files known up to (not including) `end`. */
  let next = 0;
  const deliverKnown = async (end: number) => {
    for (; next < end; next++) {
      const position = known[next]!;
      const delivered =
        position === SUMMARISED ? summarised(next) : position >= 0 ? recalling({ position }, next) : undefined;
      // Awaited only when it must be: an await a file, of a million known files, cost more than taking them.
      if (delivered !== undefined) await delivered;
    }
  };
  if (unknown.length < WORKER_THRESHOLD || workers === 0) {
    await shardsReady;
    for (const i of unknown) {
      await deliverKnown(i);
      await recalling(checkHere(i), i);
      next = i + 1;
    }
    await deliverKnown(files.names.length);
    shards?.finish();
    return;
  }
  const { settings, now, strict, pins, unsigned } = context;
  const init: WorkerInit = {
    settings,
    now: now.toISOString(),
    strict,
    pins: pins && { file: pins.file, keys: [...pins.keys] },
    unsigned: { ...unsigned, entries: [...unsigned.entries] },
    dir: files.dir,
    ...(cache && {
      cache: { scope: cache.scope, table: cache.usable.known.table, usable: cache.usable.usable, source: cache.source },
    }),
  };
  const unknownFiles = { dir: files.dir, names: unknown.map((i) => files.names[i]!) };
  await new Pool(unknownFiles, init, workers, async (result, j) => {
    if (j === 0) await shardsReady;
    const i = unknown[j]!;
    await deliverKnown(i);
    await recalling(result, i);
    next = i + 1;
  }).run();
  await deliverKnown(files.names.length);
  shards?.finish();
}

/** In `knownPositions`: a file read (or checked) by this run, and one of a shard whose summary is there. */
const UNKNOWN = -1;
const SUMMARISED = -2;

/**
 * For each file, SUMMARISED when its shard has a summary, else the position of the usable entry that knows it
 * without reading it, or UNKNOWN.
 */
function knownPositions(
  names: readonly string[],
  cache: CacheUse | undefined,
  shards: SummarisedShards | undefined,
): Int32Array {
  const known = new Int32Array(names.length).fill(UNKNOWN);
  // A cache with no entry (a cold run) knows no file: no alias is worth making to look one up.
  if (cache === undefined || cache.usable.usable.length === 0) return known;
  names.forEach((name, i) => {
    known[i] = shards?.isKnown(i) ? SUMMARISED : knownPosition(name, cache);
  });
  return known;
}

/** The position of the usable entry that knows the file `name` without reading it, or UNKNOWN. */
function knownPosition(name: string, cache: CacheUse): number {
  const identity = cache.identityOf(name);
  if (identity === undefined) return UNKNOWN;
  const position = cache.usable.known.positionOf(cache.aliasOf(name, identity));
  return position >= 0 && cache.usable.usable[position] === 1 ? position : UNKNOWN;
}

class Pool {
  readonly #waiting = new Map<number, CheckedManifest | Recalled>();
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
    readonly onResult: PoolResultHandler,
  ) {}

  run(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => (this.#settle = { resolve, reject }));
    for (let i = 0; i < this.size; i++) this.#workers.push(this.#start());
    return done.finally(() => Promise.all(this.#workers.map((w) => w.terminate())));
  }

  #start(): Worker {
    const worker = typescriptWorker(new URL("manifest-worker.ts", import.meta.url), {
      workerData: this.init,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    worker.on("message", (message: "ready" | WorkerResults) => {
      if (message !== "ready") {
        let next = 0;
        const aliases = new Map(message.aliases);
        message.positions.forEach((position, i) => {
          const alias = aliases.get(i);
          const found = alias === undefined ? { position } : { position, alias };
          this.#waiting.set(message.start + i, position >= 0 ? found : message.checked[next++]!);
        });
      }
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
    const { names } = this.files;
    while (this.#idle.length > 0 && this.#dispatched < names.length && this.#dispatched - this.#next < MAX_WAITING) {
      const start = this.#dispatched;
      this.#dispatched = Math.min(start + BATCH, names.length);
      this.#idle.pop()!.postMessage({ start, names: names.slice(start, this.#dispatched) } satisfies WorkerBatch);
    }
  }
}
