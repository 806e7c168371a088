/**
 * A build's output, made in a staging folder beside it (`.NAME.building-*`: a kill leaves
 * the output as it was, and `recoverOutput` removes the folder), then put in place in one
 * of two ways:
 * - in place, when the output's build info names a state the build's store holds
 *   (plan/output-state.ts) and the output is as that state says: the plan's index files
 *   are compared with the state; the shards
 *   that changed, old and new, say which bodies go, move or are written
 *   (plan/output-diff.ts); those files are staged, and the update is decided with its
 *   journal (journal.ts);
 * - whole, otherwise: every body and index file is staged, and the staging folder is
 *   swapped in (output.ts).
 * Bodies checked anew are staged as the check hands them over, where the plan puts them
 * (body-writer.ts). A body the update needs that the check did not hand over (the cache
 * recalled its file) comes from `bodyOf`: the cache's blob store, else its file checked
 * again. So the check runs once, whatever the output turns out to hold: a warm build and a
 * cold one differ only in what they find already done.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appendAll } from "../../core/append-all.ts";
import { BUILD_INFO_PATH, INDEX_FOLDER } from "../../edge/records.ts";
import type { Placement } from "../plan/body-names.ts";
import { buildInfo, stateNamedBy } from "../plan/build-info.ts";
import { type BodyRecord, bodyChanges, bodyRecords } from "../plan/output-diff.ts";
import type { OutputFile } from "../plan/output-file.ts";
import type { OutputPlan } from "../plan/output-plan.ts";
import { type FileDigests, parseState, stateBlob, withState } from "../plan/output-state.ts";
import type { BlobStore } from "../store/blob-store.ts";
import { keepState, readState } from "../store/kept-state.ts";
import { BodyWriter } from "./body-writer.ts";
import { decideInPlace, type Journal, STAGED } from "./journal.ts";
import { commitStaging, discardStaging, openStaging, writeFiles } from "./output.ts";

/** A published body: its UMID, its file in the output, and its ETag. */
export interface PublishedBody {
  umid: string;
  file: string;
  etag: string;
}

/** The published bodies: how many, and each in turn. */
export interface PublishedBodies {
  count: number;
  each(): Iterable<PublishedBody>;
}

/** The bytes of a published body the check did not hand over; undefined when they cannot be had. */
export type BodySource = (umid: string, etag: string) => Uint8Array | undefined;

/** A previous output to update in place: its state, and its build info's bytes. */
interface Previous {
  files: FileDigests;
  info: Uint8Array;
}

/** What of the plan the output is made from: its index files (made anew at each call), and its counts. */
export type IndexPlan = Pick<OutputPlan, "indexFiles" | "counts">;

export class OutputUpdate {
  readonly #writer: BodyWriter;
  #previous: Previous | undefined;
  #journal: Journal | undefined;
  /** The bytes of the plan's index files, and of the build info: what the output holds besides its bodies. */
  indexBytes = 0;

  private constructor(
    readonly outDir: string,
    readonly staging: string,
    private readonly store: BlobStore | undefined,
    previous: Previous | undefined,
  ) {
    this.#writer = new BodyWriter(join(staging, STAGED));
    this.#previous = previous;
  }

  /**
   * The update of `outDir`, staged in a new folder beside it once it is known to be replaceable (output.ts): in place
   * when it holds a previous output whose state `store` holds. The state of the output made is kept there.
   */
  static async open(outDir: string, store: BlobStore | undefined): Promise<OutputUpdate> {
    const staging = await openStaging(outDir, BUILD_INFO_PATH);
    return new OutputUpdate(outDir, staging, store, store && previousOutput(outDir, store));
  }

  /**
   * Whether the previous output is to be updated in place: then only the bodies checked anew need be staged as the
   * check goes.
   */
  get inPlace(): boolean {
    return this.#previous !== undefined;
  }

  /** Stages a body where the plan puts it (none: one not handed over), and moves its twin's staged body, if any. */
  stage(placed: Placement, body: Uint8Array | undefined): void {
    this.#writer.write(placed, body);
  }

  /**
   * Stages what the plan's index files and build info change, and the bodies they name that are not staged yet, from
   * `bodyOf`; false when one could not be had. A previous output that is not as its state says is replaced whole,
   * every published body (`published`) staged.
   */
  async prepare(plan: IndexPlan, published: PublishedBodies, bodyOf: BodySource): Promise<boolean> {
    if (this.#previous !== undefined) {
      const journal = await this.#inPlaceJournal(plan, this.#previous, bodyOf);
      if (journal === "unavailable") return false;
      if (journal !== "damaged") {
        this.#journal = journal;
        return true;
      }
      this.#previous = undefined;
      this.indexBytes = 0;
    }
    // Written whole from the start, the output has every body staged already: the check handed each over.
    for (const { umid, file, etag } of this.#writer.bodies < published.count ? published.each() : []) {
      if (this.#writer.holds(file)) continue;
      const body = bodyOf(umid, etag);
      if (body === undefined) return false;
      this.#writer.write({ file }, body);
    }
    const states: FileDigests = new Map();
    this.indexBytes = await writeFiles(this.#writer.dir, withState(plan.indexFiles(), states));
    this.indexBytes += await writeFiles(this.#writer.dir, [this.#buildInfo(plan, states)]);
    return true;
  }

  /** The build info naming the output's state, which it keeps in the store. */
  #buildInfo(plan: IndexPlan, states: FileDigests): OutputFile {
    const state = stateBlob(states);
    return buildInfo(plan.counts, keepState(this.store, state));
  }

  /** The most bodies one folder holds, when the output is written whole (an update in place stages only some). */
  largestFolder(): number {
    return this.#previous === undefined ? this.#writer.largestFolder() : 0;
  }

  /** Puts the prepared output in place. */
  async commit(): Promise<void> {
    if (this.#journal !== undefined) {
      decideInPlace(this.outDir, this.staging, this.#journal);
      return;
    }
    await commitStaging(this.#writer.dir, this.outDir);
    await discardStaging(this.staging);
  }

  async discard(): Promise<void> {
    await discardStaging(this.staging);
  }

  /**
   * The journal of the update in place, its files staged; `damaged` when the previous output is not as its state
   * says, `unavailable` when a body could not be had.
   */
  async #inPlaceJournal(
    plan: IndexPlan,
    previous: Previous,
    bodyOf: BodySource,
  ): Promise<Journal | "damaged" | "unavailable"> {
    const digests: FileDigests = new Map();
    const journal: Journal = { removes: [], moves: [], writes: [] };
    const before = new Map<string, BodyRecord>();
    const after = new Map<string, BodyRecord>();
    const changedIndex: OutputFile[] = [];
    for (const file of withState(plan.indexFiles(), digests, previous.files)) {
      const state = digests.get(file.path)!;
      this.indexBytes += state.bytes;
      if (previous.files.get(file.path)?.digest === state.digest) continue;
      if (!addRecords(after, file.bytes, file.path))
        throw new Error(`the plan made an index shard its own reader refuses: ${file.path}`);
      changedIndex.push(file);
    }
    for (const [path, { digest }] of previous.files) {
      if (digests.get(path)?.digest === digest) continue;
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(join(this.outDir, path));
      } catch {
        return "damaged";
      }
      if (!addRecords(before, bytes, path)) return "damaged";
      if (!digests.has(path)) journal.removes.push(path);
    }
    const bodies = bodyChanges(before, after);
    appendAll(journal.removes, bodies.removes);
    appendAll(journal.moves, bodies.moves);
    for (const { umid, file, etag } of bodies.writes) {
      if (!this.#writer.holds(file)) {
        const body = bodyOf(umid, etag);
        if (body === undefined) return "unavailable";
        this.#writer.write({ file }, body);
      }
      journal.writes.push({ path: file, staged: file });
    }
    const info = this.#buildInfo(plan, digests);
    this.indexBytes += info.bytes.byteLength;
    if (!Buffer.from(info.bytes).equals(previous.info)) changedIndex.push(info);
    // Bodies first: an index file never names a body before it is there; the build info, naming the state, last.
    await writeFiles(this.#writer.dir, changedIndex);
    for (const { path } of changedIndex) journal.writes.push({ path, staged: path });
    return journal;
  }
}

/** The output at `outDir`, when its build info names a state `store` holds, in a format this build reads. */
function previousOutput(outDir: string, store: BlobStore): Previous | undefined {
  let info: Uint8Array;
  try {
    info = readFileSync(join(outDir, BUILD_INFO_PATH));
  } catch {
    return undefined;
  }
  const digest = stateNamedBy(info);
  if (digest === undefined) return undefined;
  const state = readState(store, digest);
  const files = state && parseState(state.value);
  if (state === undefined || files === undefined) return undefined;
  // Kept until a build replaces the output that names it: one refused leaves that output as it was.
  store.keep(state.blob);
  return { files, info };
}

/**
 * Adds the body records of an index file's bytes (none but an index shard's: not resolver.json, nor the route table's
 * files); false when a shard is not as written.
 */
function addRecords(into: Map<string, BodyRecord>, bytes: Uint8Array, path: string): boolean {
  if (!path.startsWith(`${INDEX_FOLDER}/`)) return true;
  const records = bodyRecords(bytes);
  if (records === undefined) return false;
  for (const [umid, record] of records) into.set(umid, record);
  return true;
}
