/**
 * The one sweep of a folder the project writes into while other runs may too: it removes
 * the temporaries `writeAtomically` makes (atomic-write.ts) and whatever else its owner
 * says no one names (a segment no index names, a spill file, an older version's folder), once they are stale
 * (STALE_MS: a run still going writes its own well within it). A folder its owner holds
 * locked has no other writer, so there everything left over is stale at once.
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TEMPORARY_NAME } from "./atomic-write.ts";
import { STALE_MS } from "./limits.ts";

export interface SweepOptions {
  /** Besides temporaries, which of the folder's names no one names any more. */
  unnamed?: (name: string) => boolean;
  /** The caller holds the folder's lock: no other run writes there, and nothing waits to be stale. */
  locked?: boolean;
}

export function sweep(dir: string, { unnamed = () => false, locked = false }: SweepOptions = {}): void {
  const stale = locked ? Infinity : Date.now() - STALE_MS;
  for (const name of readdirSync(dir)) {
    if (!TEMPORARY_NAME.test(name) && !unnamed(name)) continue;
    const path = join(dir, name);
    // Recursive for a folder an older version left; a link in it is removed, never followed.
    if ((lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < stale)
      rmSync(path, { recursive: true, force: true });
  }
}
