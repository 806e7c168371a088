/**
 * Writing build output: into a staging folder beside the target, swapped in only when
 * complete, so a failed build leaves the previous output as it was, and a killed one
 * leaves what `recoverOutput` puts back.
 */
import { rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, stat } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { OutputFile } from "../plan/output-file.ts";
import { replayInPlace } from "./journal.ts";

/** Writes planned files into `dir`, one at a time (a plan makes each as it is asked for); returns the bytes written. */
export async function writeFiles(dir: string, files: Iterable<OutputFile>): Promise<number> {
  let bytes = 0;
  const made = new Set<string>();
  for (const file of files) {
    const folder = dirname(join(dir, file.path));
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(join(dir, file.path), file.bytes);
    bytes += file.bytes.byteLength;
  }
  return bytes;
}

/**
 * Writes `files` as the new content of `outDir`, replacing what was there in one step.
 * `marker` names the file that shows a folder is an earlier output, safe to replace.
 */
export async function writeOutput(outDir: string, files: OutputFile[], marker: string): Promise<void> {
  const staging = await openStaging(outDir, marker);
  try {
    await writeFiles(staging, files);
    await commitStaging(staging, outDir);
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
}

/**
 * A new, empty folder beside `outDir` to build into, once `outDir` is known to be replaceable: empty, or holding
 * `marker` (or one of them: what an earlier version of the tool marked it with).
 */
export async function openStaging(outDir: string, marker: string | readonly string[]): Promise<string> {
  const target = resolve(outDir);
  await assertReplaceable(target, marker);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(target)}.building-`));
  // mkdtemp makes a private folder; the output is for serving.
  await chmod(staging, 0o755);
  return staging;
}

/**
 * Swaps a complete staging folder in as `outDir`. Every step is a rename, and at every
 * instant between two of them one complete output is either at `outDir` or at a name
 * that `recoverOutput` knows: the new one at `.NAME.next` until the old one has moved to
 * `.NAME.previous`, then at `outDir`.
 */
export async function commitStaging(staging: string, outDir: string): Promise<void> {
  const target = resolve(outDir);
  const { next, previous } = swapNames(target);
  await rename(staging, next);
  const hadPrevious = await exists(target);
  if (hadPrevious) await rename(target, previous);
  try {
    await rename(next, target);
  } catch (error) {
    if (hadPrevious) await rename(previous, target);
    throw error;
  }
  if (hadPrevious) removeTree(previous);
}

/**
 * Undoes what a killed build left: an update in place it had decided is completed
 * (journal.ts); with nothing at `outDir`, the new complete output
 * (`.NAME.next`) or else the old one (`.NAME.previous`) is put back; then every leftover
 * (staging folders, a `.next` never swapped in, a `.previous`) is removed. Run under the
 * output's lock, before anything reads or writes `outDir`.
 */
export async function recoverOutput(outDir: string): Promise<string[]> {
  const target = resolve(outDir);
  const { next, previous } = swapNames(target);
  const done = replayInPlace(outDir);
  if (!(await exists(target))) {
    for (const complete of [next, previous]) {
      if (!(await exists(complete))) continue;
      await rename(complete, target);
      done.push(`restored ${outDir} from ${basename(complete)}, left by an interrupted build`);
      break;
    }
  }
  const parent = dirname(target);
  const leftover = (name: string) =>
    name.startsWith(`.${basename(target)}.building-`) || [basename(next), basename(previous)].includes(name);
  for (const name of (await readdir(parent).catch(() => [])).filter(leftover)) removeTree(join(parent, name));
  return done;
}

function swapNames(target: string): { next: string; previous: string } {
  const hidden = join(dirname(target), `.${basename(target)}`);
  return { next: `${hidden}.next`, previous: `${hidden}.previous` };
}

export async function discardStaging(staging: string): Promise<void> {
  removeTree(staging);
}

/**
 * Synchronous on purpose: the promise version of rm holds every entry of a folder as a
 * pending operation at once, which for a million bodies costs gigabytes.
 */
function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Refuses to replace a directory that is not a previous build: it would be deleted. */
export async function assertReplaceable(target: string, marker: string | readonly string[]): Promise<void> {
  if (!(await exists(target))) return;
  const entries = await readdir(target);
  const markers = typeof marker === "string" ? [marker] : marker;
  if (entries.length > 0 && !markers.some((name) => entries.includes(name))) {
    throw new OutputError(
      `refusing to replace ${target}${sep}: it is not empty and holds no ${markers[0]} from a previous build`,
    );
  }
}

export class OutputError extends Error {}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
