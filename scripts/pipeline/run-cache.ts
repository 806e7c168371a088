/**
 * `--no-verification-cache` and `UM_CACHE_DIR`, shared by `check`, `build` and `log`: where the verification
 * cache lives (scripts/cache/). By default in the repository's node_modules/.cache/, where
 * tools keep caches (Babel, ESLint, Terser) and which Netlify keeps between builds; only in a
 * package's (one with package.json), since npm takes any folder holding node_modules/ for a
 * package's root: outside one, there is no cache unless UM_CACHE_DIR names one. A cache
 * that cannot be read or written costs time, never a verdict: the run goes on without it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../read/content-root.ts";
import { printWarning } from "../report/problem-report.ts";
import { VerificationCache } from "../cache/verification-cache.ts";

/** The cache to use (undefined: `off`, or a cache that cannot be opened). `withBodies`: a build's. */
export function openCache(off: boolean, withBodies: boolean): VerificationCache | undefined {
  if (off) return undefined;
  const dir = process.env.UM_CACHE_DIR || defaultCacheDir();
  if (dir === undefined) return undefined;
  try {
    const cache = new VerificationCache(dir, withBodies);
    if (cache.ignored !== undefined)
      printWarning(`the verification cache in ${dir} was ignored, and is rebuilt: ${cache.ignored}`);
    return cache;
  } catch (error) {
    printWarning(`cannot use the verification cache in ${dir}, so every file is checked: ${(error as Error).message}`);
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
    printWarning(
      `cannot write the verification cache in ${cache.dir}, so this run's results are not kept: ${error.message}`,
    );
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
