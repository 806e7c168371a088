/**
 * Symbolic links are refused in content. Git records a link, not the file it points at,
 * while the build reads through it: a pull request could change what a linked manifest
 * or `_routes.json` says (un-revoke a UMID, empty a published one) with nothing for
 * `check --base` to see at the revision it compares with. So content is what git shows:
 * files, in folders, below the repository's top.
 */
import { existsSync, lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { displayPath } from "../read/files.ts";

const WHY =
  "git records the link, not what it points at, so check --base cannot see a " +
  "change made through it, yet the build would publish it; commit the file itself";

/** The errors for the links a listing of `dir` found (relative names). */
export function linkProblems(dir: string, links: string[]): { file: string; diagnostics: Diagnostic[] }[] {
  return links.map((name) => {
    const file = displayPath(join(dir, name));
    return {
      file,
      diagnostics: [diagnostic("content/symlink", { file }, `is a symbolic link: ${WHY}`)],
    };
  });
}

/**
 * The error for a content folder reached through a link: the folder itself, or a folder
 * between it and the repository's top (the top may be a link: git sees all below it).
 * Outside a repository, only the folder itself is looked at.
 */
export function linkedRootProblem(dir: string): Diagnostic | undefined {
  const chain: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) break;
    chain.push(at);
    if (dirname(at) === at) {
      chain.splice(1);
      break;
    }
  }
  const linked = chain.find((path) => lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink());
  if (linked === undefined) return undefined;
  const file = displayPath(dir);
  return diagnostic(
    "content/symlink",
    { file },
    `${displayPath(linked)} is a symbolic link, so this content folder is reached through one: ${WHY}`,
  );
}
