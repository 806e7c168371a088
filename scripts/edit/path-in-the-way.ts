/**
 * A command that writes files into a project must write them there, and whole: it must not
 * follow a symbolic link out of it (with `.github` linked to another folder, `init` would
 * write the workflows there: `mkdir -p` and a rename both follow a link in a folder's
 * place), nor stop half-way at a file where a folder goes or a folder where a file goes.
 * So the way to each file is looked at (lstat) before anything is written.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";

export interface InTheWay {
  /** Relative to the project, `/`-separated. */
  path: string;
  /** What it is that stops the write: "a symbolic link", "a file, not a folder", "a folder". */
  is: string;
}

/** What stops `path` (relative, `/`-separated) being written as a file under `root`; undefined when nothing does. */
export function pathInTheWay(root: string, path: string): InTheWay | undefined {
  const parts = path.split("/");
  for (let depth = 1; depth <= parts.length; depth++) {
    const at = parts.slice(0, depth).join("/");
    const stat = lstatSync(join(root, at), { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    const last = depth === parts.length;
    // The file itself may be a link or a file, which a forced write replaces (a rename replaces a link, not its target).
    if (stat.isSymbolicLink()) {
      if (!last) return { path: at, is: "a symbolic link" };
    } else if (last ? stat.isDirectory() : !stat.isDirectory())
      return { path: at, is: last ? "a folder" : "a file, not a folder" };
  }
  return undefined;
}
