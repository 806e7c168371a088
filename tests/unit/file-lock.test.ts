/**
 * Taking over a lock left by a killed writer (scripts/edit/file-lock.ts): only that lock is removed, never the lock
 * of a live writer that took it over first, or two writers would edit one file at once (attack 27: two `sign
 * --status-list` runs after a killed one each writing their own allocation, one run's entries lost).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs, { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { LockTimeout, withFileLock } from "../../scripts/edit/file-lock.ts";

const dir = mkdtempSync(join(tmpdir(), "um-file-lock-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("a lock left by a killed writer", () => {
  it("is taken over, but a live writer's lock that replaced it just before is left in place", async () => {
    const path = join(dir, "_status");
    const lock = `${path}.lock`;
    const { pid } = spawnSync(process.execPath, ["-e", ""]);
    const abandoned = JSON.stringify({ pid, host: hostname(), since: "2026-01-01T00:00:00.000Z" });
    const live = JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-01-02T00:00:00.000Z" });
    writeFileSync(lock, abandoned);
    // Another writer takes the abandoned lock over between this one's look at it and its removal of it.
    const originals = { rmSync: fs.rmSync, renameSync: fs.renameSync, unlinkSync: fs.unlinkSync };
    const before = (target: fs.PathLike) => {
      if (String(target) === lock && readText(lock) === abandoned) writeFileSync(lock, live);
    };
    fs.rmSync = (target, options) => {
      before(target);
      originals.rmSync(target, options);
    };
    fs.renameSync = (from, to) => {
      before(from);
      originals.renameSync(from, to);
    };
    fs.unlinkSync = (target) => {
      before(target);
      originals.unlinkSync(target);
    };
    syncBuiltinESMExports();
    try {
      await assert.rejects(
        withFileLock(path, 200, async () => "entered"),
        LockTimeout,
      );
    } finally {
      Object.assign(fs, originals);
      syncBuiltinESMExports();
    }
    assert.equal(readFileSync(lock, "utf8"), live);
  });
});

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
