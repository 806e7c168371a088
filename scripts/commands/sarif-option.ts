/**
 * `--sarif FILE`, shared by `check` and `build`: the problems found, also as a SARIF 2.1.0
 * log for GitHub code scanning (scripts/report/sarif.ts), written whatever the outcome and
 * atomically (a temporary file renamed over FILE), so that an upload never reads half a
 * log. URIs are relative to the repository's root: the nearest folder holding `.git`,
 * else the project's (content-root.ts).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectRoot } from "../read/content-root.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import { sarifLog } from "../report/sarif.ts";
import { toolPackage } from "../runtime/tool-files.ts";
import { UsageError } from "../cli/command.ts";

/** The file `--sarif` names, if any; one in a folder that is not there is a usage error, before any work. */
export function sarifFile(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  if (!existsSync(dirname(file)))
    throw new UsageError(`--sarif: there is no folder ${dirname(file)} to write ${file} in`);
  return file;
}

export async function writeSarif(file: string, diagnostics: readonly Diagnostic[]): Promise<void> {
  const { version, homepage } = toolPackage();
  const log = sarifLog(diagnostics, { version, homepage, root: repositoryRoot() });
  await writeFileAtomically(file, `${JSON.stringify(log, null, 2)}\n`).catch((error: Error) => {
    throw new UsageError(`--sarif: cannot write ${file}: ${error.message}`);
  });
}

function repositoryRoot(): string {
  for (let at = process.cwd(); ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (at === dirname(at)) return projectRoot();
  }
}
