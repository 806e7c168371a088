/**
 * Replacing a file so that the new bytes survive a crash or a power cut once the call
 * resolves: a witness must persist the checkpoint it cosigns before it answers (C2SP
 * tlog-witness), or a restart could forget it and cosign a fork. The bytes go to a
 * temporary in the same folder (atomic-write.ts's naming, so that a sweep knows it), which
 * is fsync'd and renamed over the file; then the folder is fsync'd, which makes the rename
 * itself durable. Writes to one folder at once share its fsyncs (FolderSync): under load
 * a witness would otherwise spend most of its time syncing the same folder once per log.
 */
import { open, rename, rm } from "node:fs/promises";
import { temporaryBeside } from "../store/atomic-write.ts";

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
