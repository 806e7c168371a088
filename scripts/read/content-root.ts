/**
 * The content root: the one folder whose manifests are published and whose `_keys.json`
 * pins keys. Every command finds it the same way, from any working directory of the
 * repository (a publisher may run `check` from `content/people/`), so that one file gets
 * one verdict whichever command looks at it; and paths are compared as real paths, so a
 * symbolic link cannot carry a private key into the published folder unseen.
 */
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

const CONTENT_DIR = "content";

/** The repository: the nearest folder at or above `from` holding `package.json` or `.git`; else `from`. */
export function projectRoot(from = process.cwd()): string {
  for (let at = resolve(from); ; at = dirname(at)) {
    if (isRepositoryTop(at)) return at;
    if (at === dirname(at)) return resolve(from);
  }
}

/** Whether `dir` is a repository's top folder, as projectRoot finds one: not merely where a command was run. */
export function isRepositoryTop(dir: string): boolean {
  return existsSync(join(dir, "package.json")) || existsSync(join(dir, ".git"));
}

/** The content folder a command uses unless `--content` names another. */
export function defaultContentDir(): string {
  return join(projectRoot(), CONTENT_DIR);
}

/**
 * The real path of `path`, which need not exist yet: its nearest existing ancestor's real
 * path, with the rest appended.
 */
export function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPath(parent), basename(absolute));
  }
}

/** Whether `path` is `dir` or lies below it, by real paths. */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(realPath(dir), realPath(path));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
