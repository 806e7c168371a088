/**
 * What the verification cache calls the tool's version: a digest of the code that runs
 * (the prebuilt CLI's files, or the TypeScript sources with the lock file that fixes their
 * packages) and of Node's version, so that any change to either, released or not, makes
 * every cached verdict a stranger's. A version number would miss an edit between releases.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PREBUILT, PREBUILT_DIR, TOOL_ROOT } from "../runtime/tool-files.ts";

let identity: string | undefined;

export function toolIdentity(): string {
  if (identity !== undefined) return identity;
  const files = PREBUILT
    ? filesIn(PREBUILT_DIR, [".js"], false)
    : [
        ...["scripts", "core", "edge"].flatMap((dir) => filesIn(join(TOOL_ROOT, dir), SOURCE_ENDINGS, true)),
        join(TOOL_ROOT, "package-lock.json"),
      ];
  const hash = createHash("sha256").update(process.version);
  for (const file of files.sort()) hash.update(`\0${file.slice(TOOL_ROOT.length)}\0`).update(readFileSync(file));
  identity = hash.digest("base64url");
  return identity;
}

const SOURCE_ENDINGS = [".ts", ".js", ".json", ".html"];

/**
 * The files of `dir` (and of its folders, when `deep`) whose names end with one of `endings`, hidden ones left out.
 * By hand, not by a glob library: every command computes this, and loading fast-glob cost more than the walk.
 */
function filesIn(dir: string, endings: readonly string[], deep: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return deep ? filesIn(path, endings, deep) : [];
    return entry.isFile() && endings.some((ending) => entry.name.endsWith(ending)) ? [path] : [];
  });
}
