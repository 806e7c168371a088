/**
 * `--no-cache` and `UM_CACHE_DIR`, shared by `check` and `build`: where the verification
 * cache lives (scripts/cache/). By default in the repository's node_modules/.cache/, where
 * tools keep caches (Babel, ESLint, Terser) and which Netlify keeps between builds. A cache
 * that cannot be read or written costs time, never a verdict: the run goes on without it.
 */
import { join } from "node:path";
import { projectRoot } from "../content/content-root.ts";
import { plural, printable } from "../report/diagnostics.ts";
import { VerificationCache } from "../cache/verification-cache.ts";
import type { OptionValues } from "./command.ts";

export const CACHE_OPTION = { "no-cache": { type: "boolean" } } as const;

export const CACHE_HELP = `  --no-cache        check every file again, and neither read nor write the verification
                    cache (UM_CACHE_DIR, default node_modules/.cache/manifest-resolver/)`;

export const CACHE_ENVIRONMENT = `  UM_CACHE_DIR           the verification cache's folder (default: the repository's
                         node_modules/.cache/manifest-resolver/)`;

/** The cache the options ask for (undefined: --no-cache, or a cache that cannot be opened). `withBodies`: a build's. */
export function openCache(values: OptionValues, withBodies: boolean): VerificationCache | undefined {
  if (values["no-cache"] === true) return undefined;
  const dir = process.env.UM_CACHE_DIR || join(projectRoot(), "node_modules", ".cache", "manifest-resolver");
  try {
    const cache = new VerificationCache(dir, withBodies);
    if (cache.ignored !== undefined) warn(`the verification cache in ${dir} was ignored, and is rebuilt: ${cache.ignored}`);
    return cache;
  } catch (error) {
    warn(`cannot use the verification cache in ${dir}, so every file is checked: ${(error as Error).message}`);
    return undefined;
  }
}

/** Keeps what the run learnt; a cache that cannot be written is a warning. */
export function saveCache(cache: VerificationCache | undefined): void {
  try {
    cache?.save();
  } catch (error) {
    warn(`cannot write the verification cache in ${cache!.dir}: ${(error as Error).message}`);
  }
}

/** What a run's summary says of the files the cache knew: nothing when none. */
export function fromCache(recalled: number): string {
  return recalled === 0 ? "" : ` (${plural(recalled, "manifest")} unchanged, from the cache)`;
}

function warn(message: string): void {
  console.error(printable(`manifest-resolver: warning: ${message}`));
}
