/**
 * A command that writes into a project must not follow a symbolic link out of it: with
 * `.github` linked to another folder, `init` would write the workflows there, and
 * `mkdir -p` and a rename both follow a link in a folder's place. So each folder between
 * the project and a file is looked at (lstat) before anything is written.
 */
import { lstatSync } from "node:fs";
import { dirname, join } from "node:path";

/** The first folder of `path` (relative, `/`-separated) under `root` that is a symbolic link; undefined when none is. */
export function linkedFolder(root: string, path: string): string | undefined {
  const folders = dirname(path)
    .split("/")
    .filter((part) => part !== ".");
  for (let depth = 1; depth <= folders.length; depth++) {
    const folder = folders.slice(0, depth).join("/");
    const stat = lstatSync(join(root, folder), { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (stat.isSymbolicLink()) return folder;
  }
  return undefined;
}
