/**
 * The HttpCache of `manifest-resolver resolve --http-cache DIR` (core/http/http-cache.ts), in
 * files: one JSON file per key, named by the hex SHA-256 of the key (any URL becomes a
 * safe, fixed-length name), holding the key itself (so a collision or a file copied from
 * elsewhere is not taken for another URL's entry) and the entry. A write goes to a
 * temporary file in the same directory and is then renamed over the entry: rename(2) is
 * atomic within a file system, so a run killed mid-write leaves the old entry or the new
 * one, never half of one. An entry that is not there, or is not one, counts as absent; a
 * directory that cannot be used (a file in the way, no permission, a read-only or full
 * disk) makes `get` and `set` throw the file system's error, which `resolve` reports once
 * before going on without the cache (core/http/http-cache.ts, guardedCache).
 */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { cachedEntryOf, type HttpCache } from "../../core/http/http-cache.ts";
import { NotACacheFile, readRegularFile } from "../store/regular-file.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";

/**
 * An entry holds one body the client read, at most a manifest's limit, as JSON text: escaped, up to six times as
 * long.
 */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** The cache in `dir`, which the first write creates if need be. */
export function fileCache(dir: string): HttpCache {
  const fileOf = (key: string) => join(dir, `${createHash("sha256").update(key).digest("hex")}.json`);
  return {
    async get(key) {
      let text: string;
      try {
        text = readRegularFile(fileOf(key), MAX_ENTRY_BYTES).toString("utf8");
      } catch (error) {
        // None, or what no write of ours left (a link, a FIFO, a device): absent.
        if (error instanceof NotACacheFile) return undefined;
        throw error;
      }
      try {
        const stored = JSON.parse(text) as { key?: unknown; entry?: unknown };
        return stored.key === key ? cachedEntryOf(stored.entry) : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, entry) {
      await mkdir(dir, { recursive: true });
      await writeFileAtomically(fileOf(key), JSON.stringify({ key, entry }));
    },
  };
}
