/**
 * Where the log keeps its verified state between runs (log-state.ts): bytes by a string key, one file per key in a
 * folder of the build's cache (UM_CACHE_DIR), each written whole under a temporary name and renamed. Kept behind this
 * interface so that another store can hold them. A cache costs time, never a verdict: a key that cannot be read is
 * one there is no state for, and a state that cannot be written is not kept.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { readRegularFile } from "../cache/regular-file.ts";
import { writeFileAtomically } from "../edit/json-file.ts";
import { machineSecret } from "./state-secret.ts";

export interface StateStore {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

/** A state larger than this is no state a log of a few million entries keeps. */
const MAX_STATE_BYTES = 2 ** 30;

/** Where the log's states are kept, and this machine's secret that seals them (state-secret.ts). */
export interface LogStates {
  store: StateStore;
  secret: Uint8Array;
}

/** The states kept in the cache folder `cacheDir` (UM_CACHE_DIR); undefined when this machine has no secret. */
export async function logStates(cacheDir: string): Promise<LogStates | undefined> {
  const secret = await machineSecret();
  return secret === undefined ? undefined : { store: folderStateStore(join(cacheDir, "log")), secret };
}

/** The store in `dir`; `key` must be a file name (a hex digest). */
function folderStateStore(dir: string): StateStore {
  return {
    async get(key) {
      try {
        return readRegularFile(join(dir, key), MAX_STATE_BYTES);
      } catch {
        // Missing, a link, a FIFO, too large or unreadable: no state, and the log is audited whole.
        return undefined;
      }
    },
    async put(key, bytes) {
      try {
        await mkdir(dir, { recursive: true });
        await writeFileAtomically(join(dir, key), bytes);
      } catch {
        // A read-only or full cache: the next run audits again.
      }
    },
  };
}
