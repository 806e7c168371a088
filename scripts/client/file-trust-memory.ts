/**
 * The memory of `manifest-resolver resolve --http-cache DIR` (core/client/trust-memory.ts), in
 * files of its own, in DIR/memory/, apart from the HTTP cache's: one JSON file per key,
 * named by the hex SHA-256 of the key and the kind of what it holds
 * (`<hash>.revoked.json`, `.suspended.json`, `.checkpoint.json`), so that the bound is
 * counted from the folder's names alone, and holding the key itself (a file copied from
 * elsewhere is not taken for another key's). A write goes to a temporary file renamed over
 * the record (atomic within a file system); a suspension that becomes a revocation is
 * written before the suspension is removed, and a revocation is read first, so a run killed
 * between the two leaves the revocation in force. Two runs writing at once may each find
 * room for one more: the bound holds give or take the writers at one time.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  DEFAULT_MEMORY_BOUNDS,
  type MemoryBounds,
  oldestSuspension,
  type Remembered,
  rememberedOf,
  roomFor,
  stays,
  type TrustMemory,
} from "../../core/client/trust-memory.ts";
import { NotACacheFile, readRegularFile } from "../store/regular-file.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";

/** A record holds a key (a URL, a verifier key and a UMID) and a checkpoint, a few kilobytes: well under this. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** The kinds a key may be held as, in the order a recall tries them: a revocation first, which nothing undoes. */
const KINDS: readonly Remembered["kind"][] = ["revoked", "suspended", "checkpoint"];

/** The memory in `dir`, which the first write creates if need be. */
export function fileTrustMemory(dir: string, bounds: MemoryBounds = DEFAULT_MEMORY_BOUNDS): TrustMemory {
  const hashOf = (key: string) => createHash("sha256").update(key).digest("hex");
  const fileOf = (key: string, kind: Remembered["kind"]) => join(dir, `${hashOf(key)}.${kind}.json`);

  /** The record in `file`, when it is one and is `key`'s (any key's, without one). */
  const read = (file: string, key?: string): [string, Remembered] | undefined => {
    let text: string;
    try {
      text = readRegularFile(file, MAX_RECORD_BYTES).toString("utf8");
    } catch (error) {
      // None, or what no write of ours left (a link, a FIFO, a device): absent.
      if (error instanceof NotACacheFile) return undefined;
      throw error;
    }
    try {
      const stored = JSON.parse(text) as { key?: unknown; record?: unknown };
      const record = rememberedOf(stored.record);
      if (typeof stored.key !== "string" || (key !== undefined && stored.key !== key)) return undefined;
      return record === undefined || !file.endsWith(`.${record.kind}.json`) ? undefined : [stored.key, record];
    } catch {
      return undefined;
    }
  };
  const recall = async (key: string) => {
    for (const kind of KINDS) {
      const found = read(fileOf(key, kind), key);
      if (found !== undefined) return found[1];
    }
    return undefined;
  };
  /** The names in the folder, none when it is not there yet. */
  const names = async () => {
    try {
      return await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  };

  return {
    recall,
    async keep(key, record) {
      const held = await recall(key);
      if (stays(held, record)) return true;
      if (held === undefined) {
        const all = await names();
        const count = (kind: string) => all.filter((name) => name.endsWith(`.${kind}.json`)).length;
        const suspensions = count("suspended");
        const room = roomFor(
          record.kind,
          { umids: count("revoked") + suspensions, suspensions, logs: count("checkpoint") },
          bounds,
        );
        if (room === "full") return false;
        if (room === "displace") {
          // By the file each was read from: one copied under another key's name is still the one that counts.
          const suspended = all
            .filter((name) => name.endsWith(".suspended.json"))
            .flatMap((name): [string, Remembered][] => {
              const found = read(join(dir, name));
              return found === undefined ? [] : [[name, found[1]]];
            });
          const oldest = oldestSuspension(suspended);
          if (oldest !== undefined) await rm(join(dir, oldest), { force: true });
        }
      }
      await mkdir(dir, { recursive: true });
      // Its temporary file does not end in .json: never read as a record, whatever happens to it.
      await writeFileAtomically(fileOf(key, record.kind), JSON.stringify({ key, record }));
      if (held !== undefined && held.kind !== record.kind) await rm(fileOf(key, held.kind), { force: true });
      return true;
    },
    async forget(key) {
      if ((await recall(key))?.kind === "suspended") await rm(fileOf(key, "suspended"), { force: true });
    },
  };
}
