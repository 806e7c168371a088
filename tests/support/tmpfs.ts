/**
 * A small tmpfs mounted for one test, to make a disk full (ENOSPC) or read-only (EROFS)
 * for real. Mounting needs root, and a container may forbid it even then: the caller
 * gets why instead, to skip with.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import type { TestContext } from "node:test";

export interface Tmpfs {
  dir: string;
  /** Remounts it read-only: every write then fails with EROFS. */
  readOnly(): void;
  /** Writes zeros until it is full: every write then fails with ENOSPC. */
  fill(): void;
  unmount(): void;
}

/**
 * Runs `use` with a tmpfs of `size` (mount's `size=` option: 64k, 4m) in a new folder
 * under `parent`, unmounted after; where none can be mounted, skips the test, saying why.
 */
export async function withTmpfs(
  test: TestContext,
  parent: string,
  size: string,
  use: (disk: Tmpfs) => Promise<void>,
): Promise<void> {
  const disk = tmpfs(parent, size);
  if (typeof disk === "string") return test.skip(disk);
  try {
    await use(disk);
  } finally {
    disk.unmount();
  }
}

/** A tmpfs of `size` in a new folder under `parent`, or why there can be none here. */
function tmpfs(parent: string, size: string): Tmpfs | string {
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root";
  const dir = mkdtempSync(join(parent, "tmpfs-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  if (mounted.status !== 0)
    return `cannot mount a tmpfs here: ${String(mounted.stderr).trim() || mounted.error?.message}`;
  return {
    dir,
    readOnly: () => assertRan(spawnSync("mount", ["-o", "remount,ro", dir]), "remount read-only"),
    // dd stops, with a failure status, when the disk is full: that is the point.
    fill: () => void spawnSync("dd", ["if=/dev/zero", `of=${join(dir, "filler")}`, "bs=4k"]),
    unmount: () => void spawnSync("umount", [dir]),
  };
}

function assertRan(result: ReturnType<typeof spawnSync>, what: string): void {
  if (result.status !== 0) throw new Error(`cannot ${what}: ${String(result.stderr).trim() || result.error?.message}`);
}
