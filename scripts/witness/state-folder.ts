/**
 * The witness's state folder, held by one process: two witnesses writing one folder could
 * each check a log's size against its own view and cosign a fork. `witness serve` takes
 * `witness.lock` in it (created exclusively, naming its process; a lock left by a process
 * that no longer runs on this host, or that names this very process, is taken over) and
 * removes it when it stops. Holding
 * it, any temporary left by a write that was killed is stale, and is removed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { acquireLock } from "../edit/file-lock.ts";
import { displayPath } from "../read/display-path.ts";
import { TEMPORARY_NAME } from "../store/atomic-write.ts";

const LOCK_FILE = "witness.lock";

/** Makes `folder` if absent and holds it: the release; throws LockTimeout when another witness holds it. */
export async function holdStateFolder(folder: string): Promise<() => void> {
  mkdirSync(folder, { recursive: true });
  const lock = join(folder, LOCK_FILE);
  const busy = (by: string) =>
    `the state folder ${displayPath(folder)} is held by another witness, ${by}: one folder serves one witness. ` +
    `If it is not running any more, delete ${displayPath(lock)}`;
  if (namesThisProcess(lock)) rmSync(lock, { force: true });
  if (!(await acquireLock(lock, 0, busy))) throw new Error(`the state folder ${displayPath(folder)} vanished`);
  for (const name of readdirSync(folder)) if (TEMPORARY_NAME.test(name)) rmSync(join(folder, name), { force: true });
  return () => rmSync(lock, { force: true });
}

/**
 * Whether the lock names this very process: a previous witness's, whose process id this one was given since (a
 * container's first process, a reboot). This process holds the folder once, so the lock is not its own yet; taken
 * for a live holder, it would keep the witness from ever starting again after a crash.
 */
function namesThisProcess(lock: string): boolean {
  try {
    const holder = JSON.parse(readFileSync(lock, "utf8")) as { pid?: unknown; host?: unknown };
    return holder.pid === process.pid && holder.host === hostname();
  } catch {
    return false;
  }
}
