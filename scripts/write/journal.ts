/**
 * The journal of an update in place (output-update.ts): what a decided update does to the
 * output, in order, so that `replayInPlace` completes it, now or (after a kill) in the next
 * build before anything else reads or writes the output. The update is decided when its
 * staging folder, holding the journal and the files to write (under `staged/`, by their
 * path in the output), is renamed `.NAME.in-place`. Each step can be done again: removals
 * first (then a mark), moves and writes by rename from where they are still found.
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
import { isOutputPath } from "../plan/output-state.ts";
import { writeAtomically } from "../store/atomic-write.ts";

/**
 * What a decided update does, in order. A file to write is named by its path in the output and by its staged copy's
 * under `staged/`: the same path since the bodies are staged where they go (a journal an earlier version left names
 * its copies by number).
 */
export interface Journal {
  removes: string[];
  moves: { from: string; to: string }[];
  writes: { path: string; staged: string }[];
}

const JOURNAL = "journal.json";
/** Written once every removal is done: a removal done again could take a file written since (case-insensitively). */
const REMOVED = "removed";
/** The folder of a staging folder that holds the files it stages, by their path in the output. */
export const STAGED = "staged";

/** Decides the update `journal` describes, whose files `staging` holds, then makes it. */
export function decideInPlace(outDir: string, staging: string, journal: Journal): void {
  // Whole or not at all: a journal that is there is one a replay can follow.
  writeAtomically(join(staging, JOURNAL), JSON.stringify(journal));
  const decided = inPlaceName(outDir);
  renameSync(staging, decided);
  replay(outDir, decided);
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
    if (!isOutputPath(staged)) throw new Error(`the journal of ${decided} names ${staged}, outside its staging folder`);
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
