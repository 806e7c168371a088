/**
 * The gate's reading of the transparency log (issue 26, section 3), when the content has
 * one (`content/_log/`): the log must verify (its checkpoint under its verifier, its tiles
 * and bundles hashing to the checkpoint's root), and its latest entry for each UMID must
 * be what the content now serves. Otherwise the resolver would serve states no log
 * records, and clients that check the log would refuse them. Content without a log is
 * not judged here. `check` and `build` both ask it, on their own content check.
 */
import { join } from "node:path";
import type { ContentCheck } from "../check/check-content.ts";
import { displayPath } from "../read/files.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { changedEntries, servedEntries } from "./log-entries.ts";
import { CHECKPOINT_FILE, type ContentLog } from "./log-folder.ts";

const RUN_LOG = "run manifest-resolver log --key <the log's key> before pushing";

/** `log`: the content's log, as openContentLog opened it. */
export function logGateProblems(log: ContentLog | undefined, content: ContentCheck): Diagnostic[] {
  if (log === undefined) return [];
  const { dir, opened } = log;
  if (!opened.ok) return [diagnostic("log/unverifiable", { file: displayPath(join(dir, opened.file)) }, opened.reason)];
  const stale = changedEntries(servedEntries(content), opened.logged.latest);
  if (stale.length === 0) return [];
  const first = JSON.parse(new TextDecoder().decode(stale[0])) as { umid: string };
  return [
    diagnostic(
      "log/stale",
      { file: displayPath(join(dir, CHECKPOINT_FILE)) },
      `${stale.length} UMID${stale.length === 1 ? "'s" : "s'"} served state is not the log's latest entry ` +
        `(the first: ${JSON.stringify(first.umid)}): ${RUN_LOG}`,
    ),
  ];
}
