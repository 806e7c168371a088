/**
 * Writing build output: into a staging folder beside the target, swapped in only when
 * complete, so a failed build leaves the previous output as it was. Also the files of the
 * record index, which depend only on the records: identical content, identical bytes.
 */
import { chmod, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { utf8 } from "../../edge/base64url.ts";
import { BUILD_INFO_PATH, INDEX_FORMAT, shardPath, type RecordEntry } from "../../edge/records.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import type { ContentCheck } from "../content/check-content.ts";

export interface OutputFile {
  path: string;
  bytes: Uint8Array;
}

/** Writes the record index and the build info into `dir`; returns the bytes written. */
export async function writeIndex(dir: string, content: ContentCheck, fileOf: (umid: string) => string): Promise<number> {
  const records = new Map<string, RecordEntry>();
  for (const m of content.published) records.set(m.umid, { file: fileOf(m.umid), etag: m.etag });
  for (const [umid, location] of content.redirects) records.set(umid, { redirect: location });
  for (const umid of content.revoked) records.set(umid, { revoked: true });
  const info = { format: INDEX_FORMAT, manifests: content.published.length, redirects: content.redirects.size, revoked: content.revoked.size };
  const files = [...indexFiles(records), { path: BUILD_INFO_PATH, bytes: utf8(JSON.stringify(info, null, 2) + "\n") }];
  await mkdir(join(dir, "index"), { recursive: true });
  await mapConcurrent(files, FILE_CONCURRENCY, (file) => writeFile(join(dir, file.path), file.bytes));
  return files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
}

/** The sharded record index (see edge/records.ts): one record per line, in UMID order. */
export function indexFiles(records: ReadonlyMap<string, RecordEntry>): OutputFile[] {
  const shards = new Map<string, string[]>();
  for (const umid of [...records.keys()].sort()) {
    const path = shardPath(umid);
    const lines = shards.get(path) ?? [];
    if (lines.length === 0) shards.set(path, lines);
    lines.push(`${JSON.stringify(umid)}:${JSON.stringify(records.get(umid))}`);
  }
  return [...shards].map(([path, lines]) => ({ path, bytes: utf8(`{"format":${INDEX_FORMAT},"records":{\n${lines.join(",\n")}\n}}\n`) }));
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

/** Swaps a complete staging folder in as `outDir`. */
export async function commitStaging(staging: string, outDir: string): Promise<void> {
  await swapIn(staging, resolve(outDir));
}

export async function discardStaging(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
}

async function swapIn(staging: string, target: string): Promise<void> {
  const previous = `${staging}.previous`;
  const hadPrevious = await exists(target);
  if (hadPrevious) await rename(target, previous);
  try {
    await rename(staging, target);
  } catch (error) {
    if (hadPrevious) await rename(previous, target);
    throw error;
  }
  if (hadPrevious) await rm(previous, { recursive: true, force: true });
}

/** Refuses to replace a directory that is not a previous build: it would be deleted. */
async function assertReplaceable(target: string, marker: string): Promise<void> {
  if (!(await exists(target))) return;
  const entries = await readdir(target);
  if (entries.length > 0 && !entries.includes(marker)) {
    throw new OutputError(`refusing to replace ${target}${sep}: it is not empty and holds no ${marker} from a previous build`);
  }
}

export class OutputError extends Error {}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
