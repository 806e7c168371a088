/** The Workers KV bulk files a build wrote (scripts/write/kv-writer.ts), read back as `wrangler kv bulk put` reads them. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface KvPair {
  key: string;
  value: string;
  metadata?: object;
  /** The value is base64 of the bytes to store (the log's files). */
  base64?: boolean;
}

/** Every bulk file under `dir`, by its path from it, in order: `kv-NNNNNNN.json`, not the folder's state. */
export function kvFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /(?:^|\/)kv-\d+\.json$/.test(f))
    .sort();
}

/** Every pair of every bulk file under `dir`. */
export function kvPairs(dir: string): KvPair[] {
  return kvFiles(dir).flatMap((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as KvPair[]);
}
