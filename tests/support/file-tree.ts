/** A built folder as tests compare it: every file under it with the SHA-256 of its bytes. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir` (relative path → SHA-256 hex of its bytes), in path order. */
export function fileDigests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return Object.fromEntries(Object.entries(out).sort());
}
