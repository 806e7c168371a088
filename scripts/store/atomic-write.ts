/**
 * Replacing a file in one step, for every file the project writes whole: the cache's, a
 * state, a publisher's JSON, the log's. The bytes go to a temporary in the same folder
 * (`.NAME.` and 12 hex digits `.tmp`: one naming scheme, which the sweep knows), opened
 * exclusively so that it is never written over another run's or through a link, and are
 * renamed over the file. A reader finds the old file or the new, never a part; a kill
 * leaves at most a temporary, which the sweep (sweep.ts) or the failed write removes.
 * Nothing is fsync'd, as before: a file is replaced for a later run's speed or a
 * publisher's edit, and each reader of a cache or state file checks its digest or shape.
 * But for `writeDurably`, for a file that must survive a crash or a power cut once written:
 * a witness persists the checkpoint it cosigns before it answers (C2SP tlog-witness), or a
 * restart could forget it and cosign a fork. Its temporary is fsync'd and renamed over the
 * file, then the folder is fsync'd, which makes the rename durable; writes to one folder at
 * once share its fsyncs (FolderSync), which a witness of many logs would otherwise repeat.
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { closeSync, fchmodSync, openSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** A temporary `writeAtomically` makes: what a sweep may remove once it is stale. */
export const TEMPORARY_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** A new temporary's path for a file that replaces `path`: in its folder, named as TEMPORARY_NAME says. */
function temporaryBeside(path: string): string {
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

/** Replaces `path`, in `folder`, with `content`, durably. */
export async function writeDurably(folder: FolderSync, path: string, content: string): Promise<void> {
  const temporary = temporaryBeside(path);
  try {
    const file = await open(temporary, "wx", 0o644);
    try {
      await file.writeFile(content);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await folder.sync();
}

/** The fsyncs of one folder, shared by every write that waits for one at the same time. */
export class FolderSync {
  private running: Promise<void> | undefined;
  private waiting: Promise<void> | undefined;

  constructor(private readonly folder: string) {}

  /** Resolves once an fsync of the folder that began after this call has ended. */
  sync(): Promise<void> {
    if (this.running === undefined) return this.start();
    // The fsync running may have begun before the caller's rename: the caller waits for the next one, which every
    // caller until it begins shares.
    this.waiting ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.waiting = undefined;
        return this.start();
      });
    return this.waiting;
  }

  private start(): Promise<void> {
    const run = (async () => {
      const folder = await open(this.folder, "r");
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    })();
    this.running = run;
    const done = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(done, done);
    return run;
  }
}
