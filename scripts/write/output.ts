/**
 * Writing build output: into a staging folder beside the target, swapped in only when
 * complete, so a failed build leaves the previous output as it was, and a killed one
 * leaves what `recoverOutput` puts back. Also the files of the
 * record index, which depend only on the records: identical content, identical bytes.
 */
import { rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { utf8 } from "../../core/base64url.ts";
import { BUILD_INFO_PATH, INDEX_FORMAT, shardPath, type RecordEntry } from "../../edge/records.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import type { ContentCheck } from "../check/check-content.ts";
import { publishedStatus, revokedStatus, withEtag } from "../plan/statuses.ts";

export interface OutputFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * Writes the record index and the build info into `dir`; returns the bytes written. One
 * shard at a time, so that only one shard's lines are ever held: one record per line, in
 * UMID order.
 */
export async function writeIndex(
  dir: string,
  content: ContentCheck,
  fileOf: (umid: string) => string,
  nextCheck: string,
): Promise<number> {
  const published = content.published;
  const redirects = [...content.redirects];
  const revoked = [...content.revoked];
  const umidAt = (i: number) =>
    i < published.length
      ? published.umidAt(i)
      : i < published.length + redirects.length
        ? redirects[i - published.length]![0]
        : revoked[i - published.length - redirects.length]!;
  const entryAt = (i: number): RecordEntry =>
    i < published.length
      ? {
          file: fileOf(published.umidAt(i)),
          etag: published.etagAt(i),
          status: withEtag(
            published.umidAt(i),
            publishedStatus(published.issuedAt(i), content.statuses.get(published.umidAt(i)), nextCheck),
          ),
        }
      : i < published.length + redirects.length
        ? { redirect: redirects[i - published.length]![1] }
        : { revoked: true, status: withEtag(umidAt(i), revokedStatus(content.statuses.get(umidAt(i)), nextCheck)) };
  const shards = new Map<string, number[]>();
  const total = published.length + redirects.length + revoked.length;
  for (let i = 0; i < total; i++) {
    const path = shardPath(umidAt(i));
    const members = shards.get(path);
    if (members === undefined) shards.set(path, [i]);
    else members.push(i);
  }
  await mkdir(join(dir, "index"), { recursive: true });
  let bytes = 0;
  for (const [path, members] of shards) {
    const lines = members
      .map((i) => [umidAt(i), i] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([umid, i]) => `${JSON.stringify(umid)}:${JSON.stringify(entryAt(i))}`);
    const shard = utf8(`{"format":${INDEX_FORMAT},"records":{\n${lines.join(",\n")}\n}}\n`);
    writeFileSync(join(dir, path), shard);
    bytes += shard.byteLength;
  }
  const info = utf8(
    `${JSON.stringify(
      { format: INDEX_FORMAT, manifests: published.length, redirects: redirects.length, revoked: revoked.length },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(dir, BUILD_INFO_PATH), info);
  return bytes + info.byteLength;
}
/**
 * Writes `files` as the new content of `outDir`, replacing what was there in one step.
 * `marker` names the file that shows a folder is an earlier output, safe to replace.
 */
export async function writeOutput(outDir: string, files: OutputFile[], marker: string): Promise<void> {
  const staging = await openStaging(outDir, marker);
  try {
    for (const dir of new Set(files.map((f) => dirname(join(staging, f.path))))) await mkdir(dir, { recursive: true });
    await mapConcurrent(files, FILE_CONCURRENCY, (file) => writeFile(join(staging, file.path), file.bytes));
    await commitStaging(staging, outDir);
  } catch (error) {
    await discardStaging(staging);
    throw error;
  }
}

/** A new, empty folder beside `outDir` to build into, once `outDir` is known to be replaceable. */
export async function openStaging(outDir: string, marker: string): Promise<string> {
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
 * Undoes what a killed build left: with nothing at `outDir`, the new complete output
 * (`.NAME.next`) or else the old one (`.NAME.previous`) is put back; then every leftover
 * (staging folders, a `.next` never swapped in, a `.previous`) is removed. Run under the
 * output's lock, before anything reads or writes `outDir`.
 */
export async function recoverOutput(outDir: string): Promise<string[]> {
  const target = resolve(outDir);
  const { next, previous } = swapNames(target);
  const done: string[] = [];
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
async function assertReplaceable(target: string, marker: string): Promise<void> {
  if (!(await exists(target))) return;
  const entries = await readdir(target);
  if (entries.length > 0 && !entries.includes(marker)) {
    throw new OutputError(
      `refusing to replace ${target}${sep}: it is not empty and holds no ${marker} from a previous build`,
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
