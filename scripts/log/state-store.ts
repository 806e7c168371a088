/**
 * Where the log keeps its verified state between runs (log-state.ts): bytes by a string key, one file per key in a
 * folder of the build's cache (UM_CACHE_DIR), each written whole under a temporary name and renamed. Kept behind this
 * interface so that another store can hold them. A cache costs time, never a verdict: a key that cannot be read is
 * one there is no state for, and a state that cannot be written is not kept.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { readRegularFile } from "../store/regular-file.ts";
import { MAX_LOG_STATE_BYTES } from "../store/limits.ts";
import { sweep } from "../store/sweep.ts";

export interface StateStore {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

/** The log's states kept in the cache folder `cacheDir` (UM_CACHE_DIR). */
export function logStates(cacheDir: string): StateStore {
  return folderStateStore(join(cacheDir, "log"));
}

/** The store in `dir`; `key` must be a file name (a hex digest). */
function folderStateStore(dir: string): StateStore {
  return {
    async get(key) {
      try {
        return readRegularFile(join(dir, key), MAX_LOG_STATE_BYTES);
      } catch {
        // Missing, a link, a FIFO, too large or unreadable: no state, and the log is audited whole.
        return undefined;
      }
    },
    async put(key, bytes) {
      try {
        await mkdir(dir, { recursive: true });
        await writeFileAtomically(join(dir, key), bytes);
        // The temporaries of runs killed while writing one: nothing else sweeps this folder.
        sweep(dir);
      } catch {
        // A read-only or full cache: the next run audits again.
      }
    },
  };
}
