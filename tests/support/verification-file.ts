/**
 * The verification cache's file (scripts/cache/verification-cache.ts), edited as a test damages it: its first line
 * holds the digest of what follows the table of keys, so an edit there must be hashed again to be read at all.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

/** Writes `bytes` (by default, what `file` holds) to `file`, the digest on its first line made again for them. */
export function rehash(file: string, bytes: Buffer = readFileSync(file)): void {
  const newline = bytes.indexOf(10);
  const header = JSON.parse(bytes.toString("utf8", 0, newline));
  // The first line's digest covers what follows the table of keys, which has a header and a digest of its own.
  const keysLine = bytes.indexOf(10, newline + 1);
  const keys = JSON.parse(bytes.toString("utf8", newline + 1, keysLine));
  header.sha256 = createHash("sha256")
    .update(bytes.subarray(keysLine + 1 + keys.count * keys.rowBytes))
    .digest("base64url");
  bytes.write(JSON.stringify(header).padEnd(newline), 0, "utf8");
  writeFileSync(file, bytes);
}
