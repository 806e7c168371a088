/**
 * The gate's reading of the transparency log (issue 26, section 3), when the content has
 * one (`content/_log/`): the log must verify (its checkpoint under its verifier, its tiles
 * and bundles hashing to the checkpoint's root), and its latest entry for each UMID must
 * be what the content now serves. Otherwise the resolver would serve states no log
 * records, and clients that check the log would refuse them. Content without a log is
 * not judged here.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ContentCheck } from "../check/check-content.ts";
import { displayPath } from "../read/files.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { changedEntries, servedEntries } from "./log-entries.ts";
import { CHECKPOINT_FILE, LOG_FOLDER, openLog } from "./log-folder.ts";

const RUN_LOG = "run manifest-resolver log --key <the log's key> before pushing";

export async function logGateProblems(contentDir: string, content: ContentCheck): Promise<Diagnostic[]> {
  const logDir = join(contentDir, LOG_FOLDER);
  if (!existsSync(logDir)) return [];
  const opened = await openLog(logDir);
  if (!opened.ok)
    return [diagnostic("log/unverifiable", { file: displayPath(join(logDir, opened.file)) }, opened.reason)];
  const stale = changedEntries(servedEntries(content), opened.logged.latest);
  if (stale.length === 0) return [];
  const first = JSON.parse(new TextDecoder().decode(stale[0])) as { umid: string };
  return [
    diagnostic(
      "log/stale",
      { file: displayPath(join(logDir, CHECKPOINT_FILE)) },
      `${stale.length} UMID${stale.length === 1 ? "'s" : "s'"} served state is not the log's latest entry ` +
        `(the first: ${JSON.stringify(first.umid)}): ${RUN_LOG}`,
    ),
  ];
}
