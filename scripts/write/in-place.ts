/**
 * A warm build's output: the previous output folder, updated in place. Nothing in it
 * changes until the content has passed its check and every file to write is staged:
 * - while the content is checked, the bodies checked anew are written to a staging folder
 *   beside the output (`.NAME.building-*`: a kill then leaves the output as it was, and
 *   `recoverOutput` removes the staging folder);
 * - then the plan's index files are compared with the state the output keeps
 *   (plan/output-state.ts); the shards that changed, old and new, say which bodies go, move
 *   or are written (plan/output-diff.ts); those files are staged with a journal of the
 *   changes;
 * - the staging folder is renamed `.NAME.in-place`: from that instant the update is
 *   decided, and `replayInPlace` completes it, now or (after a kill) in the next build
 *   before anything else reads or writes the output. Each step can be done again: removals
 *   first (then a mark), moves and writes by rename from where they are still found.
 * Folders a removal or a move empties are removed, but for those every build makes.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { BUILD_INFO_PATH, INDEX_FOLDER } from "../../edge/records.ts";
import { type BodyRecord, bodyChanges, bodyRecords } from "../plan/output-diff.ts";
import type { OutputFile } from "../plan/output-file.ts";
import { type FileDigests, isOutputPath, parseState, STATE_PATH, withState } from "../plan/output-state.ts";
import { appendAll } from "../../core/append-all.ts";
import { writeAtomically } from "../store/atomic-write.ts";

/** What a decided update does, in order; files to write are named by their staged copy. */
interface Journal {
  removes: string[];
  moves: { from: string; to: string }[];
  writes: { path: string; staged: string }[];
}

const JOURNAL = "journal.json";
/** Written once every removal is done: a removal done again could take a file written since (case-insensitively). */
const REMOVED = "removed";
const STAGED = "staged";

export class InPlaceOutput {
  /** Staged bodies, by ETag, with their staged names. */
  readonly #bodies = new Map<string, string>();
  #staged = 0;
  /** The bytes of the plan's index files, and of the state: what the output holds besides its bodies. */
  indexBytes = 0;

  private constructor(
    readonly outDir: string,
    readonly staging: string,
    readonly previous: FileDigests,
    readonly previousState: string,
  ) {
    mkdirSync(join(staging, STAGED));
  }

  /**
   * The previous output, to update in place, staging in `staging()` (a new folder beside it); undefined when there is
   * none, or none this build can read as its own.
   */
  static async open(outDir: string, staging: () => Promise<string>): Promise<InPlaceOutput | undefined> {
    let text: string;
    try {
      if (!existsSync(join(outDir, BUILD_INFO_PATH))) return undefined;
      text = readFileSync(join(outDir, STATE_PATH), "utf8");
    } catch {
      return undefined;
    }
    const previous = parseState(text);
    if (previous === undefined) return undefined;
    return new InPlaceOutput(outDir, await staging(), previous, text);
  }

  /** Keeps a body checked anew, in case the plan writes it. */
  stageBody(etag: string, body: Uint8Array): void {
    if (this.#bodies.has(etag)) return;
    this.#bodies.set(etag, this.#stage(body));
  }

  /**
   * Stages the index files of the plan that changed and the body files they name, with
   * the journal; false when the update needs a body this build did not check anew and
   * the previous output does not hold (the build is then made cold), or the previous
   * output is not as its state says.
   */
  prepare(indexFiles: Iterable<OutputFile>): boolean {
    const digests: FileDigests = new Map();
    const journal: Journal = { removes: [], moves: [], writes: [] };
    const before = new Map<string, BodyRecord>();
    const after = new Map<string, BodyRecord>();
    const indexWrites: Journal["writes"] = [];
    for (const file of withState(indexFiles, digests, this.previous)) {
      if (file.path === STATE_PATH) {
        this.indexBytes += file.bytes.byteLength;
        if (Buffer.from(file.bytes).toString("utf8") !== this.previousState)
          indexWrites.push({ path: file.path, staged: this.#stage(file.bytes) });
        continue;
      }
      const state = digests.get(file.path)!;
      this.indexBytes += state.bytes;
      if (this.previous.get(file.path)?.digest === state.digest) continue;
      if (!addRecords(after, file.bytes, file.path)) return false;
      indexWrites.push({ path: file.path, staged: this.#stage(file.bytes) });
    }
    for (const [path, { digest }] of this.previous) {
      if (digests.get(path)?.digest === digest) continue;
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(join(this.outDir, path));
      } catch {
        return false;
      }
      if (!addRecords(before, bytes, path)) return false;
      if (!digests.has(path)) journal.removes.push(path);
    }
    const bodies = bodyChanges(before, after);
    appendAll(journal.removes, bodies.removes);
    appendAll(journal.moves, bodies.moves);
    for (const { file, etag } of bodies.writes) {
      const staged = this.#bodies.get(etag);
      if (staged === undefined) return false;
      journal.writes.push({ path: file, staged });
    }
    // Bodies first: an index file never names a body before it is there.
    appendAll(journal.writes, indexWrites);
    // Whole or not at all: a journal that is there is one a replay can follow.
    writeAtomically(join(this.staging, JOURNAL), JSON.stringify(journal));
    return true;
  }

  /** Decides the update, then makes it. */
  commit(): void {
    const decided = inPlaceName(this.outDir);
    renameSync(this.staging, decided);
    replay(this.outDir, decided);
  }

  discard(): void {
    rmSync(this.staging, { recursive: true, force: true });
  }

  #stage(bytes: Uint8Array): string {
    const name = String(this.#staged++);
    writeFileSync(join(this.staging, STAGED, name), bytes);
    return name;
  }
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

/** Completes an update a killed build decided but did not finish; says so when it did. */
export function replayInPlace(outDir: string): string[] {
  const decided = inPlaceName(outDir);
  if (!existsSync(decided)) return [];
  replay(outDir, decided);
  return [`completed the update of ${outDir} that an interrupted build had begun`];
}

function replay(outDir: string, decided: string): void {
  // The journal is written before the folder is decided and goes only when the folder is removed, after the update
  // is made: a decided folder without one is what a kill during that removal left.
  if (!existsSync(join(decided, JOURNAL))) {
    rmSync(decided, { recursive: true, force: true });
    return;
  }
  const journal = JSON.parse(readFileSync(join(decided, JOURNAL), "utf8")) as Journal;
  const at = (path: string) => {
    if (!isOutputPath(path)) throw new Error(`the journal of ${decided} names ${path}, outside the output`);
    return join(outDir, path);
  };
  if (!existsSync(join(decided, REMOVED))) {
    for (const path of journal.removes) {
      rmSync(at(path), { force: true });
    }
    writeFileSync(join(decided, REMOVED), "");
  }
  for (const { from, to } of journal.moves) {
    if (!existsSync(at(from))) continue;
    mkdirSync(dirname(at(to)), { recursive: true });
    renameSync(at(from), at(to));
  }
  for (const { path, staged } of journal.writes) {
    const source = join(decided, STAGED, staged);
    if (!existsSync(source)) continue;
    mkdirSync(dirname(at(path)), { recursive: true });
    renameSync(source, at(path));
  }
  const left = [...journal.removes, ...journal.moves.map((move) => move.from)];
  for (const folder of new Set(left.map(dirname))) removeIfEmpty(outDir, folder);
  rmSync(decided, { recursive: true, force: true });
}

/**
 * Removes `folder` (relative to the output) and the folders above it while they are empty: a build makes a folder
 * only for a file it writes there.
 */
function removeIfEmpty(outDir: string, folder: string): void {
  for (let at = folder; at !== "."; at = dirname(at)) {
    const path = join(outDir, at);
    if (!existsSync(path) || readdirSync(path).length > 0) return;
    rmdirSync(path);
  }
}

function inPlaceName(outDir: string): string {
  const target = resolve(outDir);
  return join(dirname(target), `.${basename(target)}.in-place`);
}
