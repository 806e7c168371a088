/**
 * Replacing a file in one step, for every file the project writes whole: the cache's, a
 * state, a publisher's JSON, the log's. The bytes go to a temporary in the same folder
 * (`.NAME.` and 12 hex digits `.tmp`: one naming scheme, which the sweep knows), opened
 * exclusively so that it is never written over another run's or through a link, and are
 * renamed over the file. A reader finds the old file or the new, never a part; a kill
 * leaves at most a temporary, which the sweep (sweep.ts) or the failed write removes.
 * Nothing is fsync'd, as before: a file is replaced for a later run's speed or a
 * publisher's edit, and each reader of a cache or state file checks its digest or shape.
 * (A witness's record must outlive a power cut: scripts/witness/durable-write.ts syncs.)
 */
import { randomBytes } from "node:crypto";
import { closeSync, fchmodSync, openSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** A temporary `writeAtomically` makes: what a sweep may remove once it is stale. */
export const TEMPORARY_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** A new temporary's path for a file that replaces `path`: in its folder, named as TEMPORARY_NAME says. */
export function temporaryBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
}

/** What is written: bytes or text, or a function that writes them to the open file (`fd`) in parts. */
export type FileContent = string | Uint8Array | ((fd: number) => void);

/** Replaces `path` with `content` in one step, keeping the file's permissions (a new file's: 0o644, less the umask). */
export function writeAtomically(path: string, content: FileContent): void {
  const temporary = temporaryBeside(path);
  const existingMode = statSync(path, { throwIfNoEntry: false })?.mode;
  const kept = existingMode === undefined ? undefined : existingMode & 0o777;
  const fd = openSync(temporary, "wx", kept ?? 0o644);
  try {
    try {
      // The umask applies to a new file, not to the one replaced: without this, a group-writable file would lose it.
      if (kept !== undefined) fchmodSync(fd, kept);
      if (typeof content === "function") content(fd);
      else writeFileSync(fd, content);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** `writeAtomically` for the commands' async code: a refusal is a rejection. */
export async function writeFileAtomically(path: string, content: string | Uint8Array): Promise<void> {
  writeAtomically(path, content);
}
