/**
 * What the verification cache calls the tool's version: a digest of the code that runs
 * (the prebuilt CLI's files, or the TypeScript sources with the lock file that fixes their
 * packages) and of Node's version, so that any change to either, released or not, makes
 * every cached verdict a stranger's. A version number would miss an edit between releases.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { PREBUILT, PREBUILT_DIR, TOOL_ROOT } from "../runtime/tool-files.ts";

let identity: string | undefined;

export function toolIdentity(): string {
  if (identity !== undefined) return identity;
  const files = PREBUILT
    ? fg.sync("*.js", { cwd: PREBUILT_DIR, absolute: true })
    : [
        ...fg.sync("{scripts,core,edge}/**/*.{ts,js,json,html}", { cwd: TOOL_ROOT, absolute: true }),
        join(TOOL_ROOT, "package-lock.json"),
      ];
  const hash = createHash("sha256").update(process.version);
  for (const file of files.sort()) hash.update(`\0${file.slice(TOOL_ROOT.length)}\0`).update(readFileSync(file));
  identity = hash.digest("base64url");
  return identity;
}
