/**
 * Folders of files as tests make and compare them: written from a table of paths, and read
 * back as every file with the SHA-256 of its bytes.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Writes each of `files` under `dir` (objects as pretty JSON, strings and bytes as they are); returns `dir`. */
export function writeFiles(dir: string, files: Record<string, unknown>): string {
  for (const [file, value] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(
      join(dir, file),
      typeof value === "string" || Buffer.isBuffer(value) ? value : `${JSON.stringify(value, null, 2)}\n`,
    );
  }
  return dir;
}

/** Every file under `dir` (relative path → SHA-256 hex of its bytes), in path order. */
export function fileDigests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return Object.fromEntries(Object.entries(out).sort());
}
