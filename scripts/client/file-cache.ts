/**
 * The HttpCache of `manifest-resolver resolve --cache DIR` (core/client/http-cache.ts), in
 * files: one JSON file per key, named by the hex SHA-256 of the key (any URL becomes a
 * safe, fixed-length name), holding the key itself (so a collision or a file copied from
 * elsewhere is not taken for another URL's entry) and the entry. A write goes to a
 * temporary file in the same directory and is then renamed over the entry: rename(2) is
 * atomic within a file system, so a run killed mid-write leaves the old entry or the new
 * one, never half of one. An entry that cannot be read or is not one counts as absent.
 */
import { createHash, randomBytes } from "node:crypto";
import { accessSync, constants, mkdirSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cachedEntryOf, type HttpCache } from "../../core/client/http-cache.ts";

/** A directory that cannot hold the cache: a usage error for the command. */
export class CacheDirError extends Error {}

/** The cache in `dir`, created if need be; throws CacheDirError when it cannot be written. */
export function fileCache(dir: string): HttpCache {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new CacheDirError(`cannot use ${dir} as the cache directory: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const fileOf = (key: string) => join(dir, `${createHash("sha256").update(key).digest("hex")}.json`);
  return {
    async get(key) {
      try {
        const stored = JSON.parse(await readFile(fileOf(key), "utf8")) as { key?: unknown; entry?: unknown };
        return stored.key === key ? cachedEntryOf(stored.entry) : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, entry) {
      const file = fileOf(key);
      // Not ending in .json: never read as an entry, whatever happens to it.
      const temporary = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, JSON.stringify({ key, entry }));
        await rename(temporary, file);
      } finally {
        await rm(temporary, { force: true });
      }
    },
  };
}
