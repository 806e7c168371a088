/**
 * One writer at a time for a content file. Commands that edit a file read it, change it
 * and write it back whole: two at once would each write their own change over the
 * other's, and both report success. A writer takes `<file>.lock` (created exclusively,
 * naming its process), re-reads the file inside it, and removes the lock when done. A
 * second writer waits, up to a bound, then says who holds the lock; a lock left by a
 * process that no longer runs on this host (killed mid-edit) is taken over.
 */
import { randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { displayPath } from "../read/display-path.ts";

/** A lock held for too long: the message names the file and how to clear it. */
export class LockTimeout extends Error {}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

/** Runs `work` holding the lock of `path`, waiting at most `waitMs` for it. */
export async function withFileLock<T>(path: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  const busy = (by: string) =>
    `${displayPath(path)} is being edited by ${by}; gave up waiting. If no such command is running any more, ` +
    `delete ${displayPath(lock)}`;
  // No folder, no file to protect: `work` says what is missing.
  if (!(await acquireLock(lock, waitMs, busy))) return work();
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Runs `work` holding the locks of all `paths`, taken in one order so that two commands never wait on each other. */
export async function withFileLocks<T>(paths: readonly string[], waitMs: number, work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = [...new Set(paths)].sort();
  return first === undefined ? work() : withFileLock(first, waitMs, () => withFileLocks(rest, waitMs, work));
}

/**
 * Takes `lock` (true), or finds that its folder does not exist (false), waiting at most `waitMs` for its holder to
 * release it; then throws LockTimeout, saying `busy(who holds it)`. Who takes it removes it once done.
 */
export async function acquireLock(lock: string, waitMs: number, busy: (by: string) => string): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o644);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return false;
      if (code !== "EEXIST") throw error;
    }
    const held = readHolder(lock);
    if (held !== undefined && isAbandoned(held.holder)) {
      takeOver(lock, held.text);
      continue;
    }
    if (Date.now() >= deadline) {
      const by =
        held === undefined
          ? "another command"
          : `process ${held.holder.pid} on ${held.holder.host} since ${held.holder.since}`;
      throw new LockTimeout(busy(by));
    }
    await sleep(20 + Math.random() * 30);
  }
}

/**
 * Removes `lock` if it is still the abandoned one whose text is `text`. Another writer may take it over between the
 * look at it and its removal, so it is moved aside first (one rename: nothing comes between) and then looked at: a
 * live holder's lock moved aside is put back where it was.
 */
function takeOver(lock: string, text: string): void {
  const aside = `${lock}.${randomBytes(6).toString("hex")}.abandoned`;
  try {
    renameSync(lock, aside);
  } catch {
    // Taken over, or released, meanwhile: try again.
    return;
  }
  try {
    if (readFileSync(aside, "utf8") !== text) linkSync(aside, lock);
  } catch {
    // A third writer took the place in between (rarer still than the race this closes): its lock is left.
  } finally {
    rmSync(aside, { force: true });
  }
}

function readHolder(lock: string): { text: string; holder: Holder } | undefined {
  try {
    const text = readFileSync(lock, "utf8");
    return { text, holder: JSON.parse(text) as Holder };
  } catch {
    // Released meanwhile, or caught half-written: try again.
    return undefined;
  }
}

function isAbandoned(holder: Holder): boolean {
  if (holder.host !== hostname() || !Number.isInteger(holder.pid)) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
