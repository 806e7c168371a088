/**
 * Replacing a file so that the new bytes survive a crash or a power cut once the call
 * resolves: a witness must persist the checkpoint it cosigns before it answers (C2SP
 * tlog-witness), or a restart could forget it and cosign a fork. The bytes go to a
 * temporary in the same folder (atomic-write.ts's naming, so that a sweep knows it), which
 * is fsync'd, renamed over the file, and then the folder is fsync'd, which makes the
 * rename itself durable.
 */
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { temporaryBeside } from "../store/atomic-write.ts";

export async function writeDurably(path: string, content: string): Promise<void> {
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
  const folder = await open(dirname(path), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
