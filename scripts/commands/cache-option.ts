/**
 * `--no-cache` and `UM_CACHE_DIR`, shared by `check` and `build`: where the verification
 * cache lives (scripts/cache/). By default in the repository's node_modules/.cache/, where
 * tools keep caches (Babel, ESLint, Terser) and which Netlify keeps between builds; only in a
 * package's (one with package.json), since npm takes any folder holding node_modules/ for a
 * package's root: outside one, there is no cache unless UM_CACHE_DIR names one. A cache
 * that cannot be read or written costs time, never a verdict: the run goes on without it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../read/content-root.ts";
import { plural, printable } from "../report/diagnostics.ts";
import { VerificationCache } from "../cache/verification-cache.ts";
import type { PublishedManifests } from "../check/published.ts";
import { quoted } from "../../core/excerpt.ts";

/** The cache the options ask for (undefined: --no-cache, or a cache that cannot be opened). `withBodies`: a build's. */
export function openCache(values: { "no-cache": boolean }, withBodies: boolean): VerificationCache | undefined {
  if (values["no-cache"]) return undefined;
  const dir = process.env.UM_CACHE_DIR || defaultCacheDir();
  if (dir === undefined) return undefined;
  try {
    const cache = new VerificationCache(dir, withBodies);
    if (cache.ignored !== undefined)
      warn(`the verification cache in ${dir} was ignored, and is rebuilt: ${cache.ignored}`);
    return cache;
  } catch (error) {
    warn(`cannot use the verification cache in ${dir}, so every file is checked: ${(error as Error).message}`);
    return undefined;
  }
}

/** The repository's node_modules/.cache/manifest-resolver/; undefined when the repository is not a package. */
function defaultCacheDir(): string | undefined {
  const root = projectRoot();
  return existsSync(join(root, "package.json")) ? join(root, "node_modules", ".cache", "manifest-resolver") : undefined;
}

/**
 * Keeps what the run learnt. A cache that cannot be written is one warning, whether its
 * blob store refused a body during the run (then nothing more is tried) or its file now.
 */
export function saveCache(cache: VerificationCache | undefined): void {
  if (cache === undefined) return;
  const unwritable = (error: Error) =>
    warn(`cannot write the verification cache in ${cache.dir}, so this run's results are not kept: ${error.message}`);
  if (cache.blobs?.unwritable !== undefined) {
    unwritable(cache.blobs.unwritable);
    return;
  }
  try {
    cache.save();
  } catch (error) {
    unwritable(error as Error);
  }
}

/**
 * Puts in the cache's blob store each published body it does not hold, from its file in the output (`fileOf`), and
 * writes them: a refusal is known before the cache is saved. A file that is gone is not kept: a read is not a
 * refused write.
 */
export function keepBodies(
  cache: VerificationCache | undefined,
  published: PublishedManifests,
  fileOf: (umid: string) => string,
): void {
  const store = cache?.blobs;
  if (store === undefined) return;
  for (let i = 0; i < published.length && store.unwritable === undefined; i++) {
    const digest = published.digestAt(i);
    if (store.has(digest)) continue;
    const body = outputBody(fileOf(published.umidAt(i)));
    // Bytes that are no longer that body are filed under their own digest, which no entry names: the index drops them.
    if (body !== undefined) store.put(body);
  }
  store.flush();
}

/**
 * The bytes of a body the cache recalled, from its blob store, still those verified; none
 * when the file must be checked again: the store no longer has it, or has other bytes
 * under its digest (a warning: someone or something altered the store).
 */
export function recalledBody(cache: VerificationCache, umid: string, digest: string): Uint8Array | undefined {
  const recalled = cache.blobs!.get(digest);
  if (recalled === "altered")
    warn(
      `the verification cache's body of ${quoted(umid)} is not the one verified ` +
        `(${cache.blobs!.dir} was altered), so it was dropped and its file checked again`,
    );
  return typeof recalled === "string" ? undefined : recalled;
}

/** The bytes of the output's file at `path`, if it can be read. */
function outputBody(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    // The output's file is gone or unreadable: that body is not kept, and nothing else changes.
    return undefined;
  }
}

/** What a run's summary says of the files the cache knew: nothing when none. */
export function fromCache(recalled: number): string {
  return recalled === 0 ? "" : ` (${plural(recalled, "manifest")} unchanged, from the cache)`;
}

function warn(message: string): void {
  console.error(printable(`manifest-resolver: warning: ${message}`));
}
