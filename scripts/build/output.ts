/**
 * Writing the build output: the body file of every published manifest, and the record
 * map that the edge handler reads. Output is written beside the target and swapped in
 * only when complete, so a failed build leaves the previous output as it was; identical
 * content gives byte-identical output.
 */
import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { utf8 } from "../../edge/base64url.ts";
import { formatEtag } from "../../edge/etag.ts";
import { BUILD_INFO_PATH, INDEX_FORMAT, shardPath, type RecordEntry } from "../../edge/records.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import type { ContentCheck } from "../content/check-content.ts";
import { canonicalize } from "../crypto/jcs.ts";
import { bodyFileNames } from "./body-names.ts";

export interface OutputFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * What the build writes, in memory. A body is the JCS canonical form of the manifest
 * (signature included): one spelling per manifest whatever the file's formatting, so
 * a whitespace-only edit keeps its ETag and caches stay valid, and the bytes served are
 * the bytes a consumer canonicalizes to verify.
 */
export function planOutput(content: ContentCheck): OutputFile[] {
  const names = bodyFileNames(content.published.map((m) => m.umid));
  const files: OutputFile[] = [];
  const records = new Map<string, RecordEntry>();
  for (const manifest of content.published) {
    const bytes = utf8(canonicalize(manifest.value));
    const path = names.get(manifest.umid)!;
    files.push({ path, bytes });
    records.set(manifest.umid, { file: path, etag: formatEtag(createHash("sha256").update(bytes).digest()) });
  }
  for (const [umid, location] of content.redirects) records.set(umid, { redirect: location });
  for (const umid of content.revoked) records.set(umid, { revoked: true });
  files.push(...indexFiles(records));
  const info = { format: INDEX_FORMAT, manifests: content.published.length, redirects: content.redirects.size, revoked: content.revoked.size };
  files.push({ path: BUILD_INFO_PATH, bytes: utf8(JSON.stringify(info, null, 2) + "\n") });
  return files;
}

/** The sharded record index (see edge/records.ts): one record per line, in UMID order. */
export function indexFiles(records: ReadonlyMap<string, RecordEntry>): OutputFile[] {
  const shards = new Map<string, string[]>();
  for (const umid of [...records.keys()].sort()) {
    const path = shardPath(createHash("sha256").update(umid, "utf8").digest("hex"));
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
export async function writeOutput(outDir: string, files: OutputFile[], marker = BUILD_INFO_PATH): Promise<void> {
  const target = resolve(outDir);
  await assertReplaceable(target, marker);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const staging = await mkdtemp(join(parent, `.${basename(target)}.building-`));
  try {
    // mkdtemp makes a private folder; the output is for serving.
    await chmod(staging, 0o755);
    for (const dir of new Set(files.map((f) => dirname(join(staging, f.path))))) await mkdir(dir, { recursive: true });
    await mapConcurrent(files, FILE_CONCURRENCY, (file) => writeFile(join(staging, file.path), file.bytes));
    await swapIn(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
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
