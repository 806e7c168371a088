/**
 * What `check` judges of a whole content folder beyond its files: the transparency log's
 * gate (scripts/log/log-gate.ts), judged only with all of the content, since the log records
 * what the whole of it serves. Against an earlier revision, see history-judgements.ts.
 */
import type { ContentCheck } from "../check/check-content.ts";
import type { Revision } from "../history/git-revision.ts";
import { openContentLog } from "../log/log-folder.ts";
import { logGateProblems } from "../log/log-gate.ts";
import type { StateStore } from "../log/state-store.ts";

/**
 * Adds the log gate's problems to `check`, the check of the whole content folder `dir`; against `revision`'s log,
 * if given.
 */
export async function addLogProblems(
  dir: string,
  check: ContentCheck,
  states: StateStore | undefined,
  revision?: Revision,
): Promise<void> {
  const log = (await openContentLog(dir, states))?.opened;
  for (const problem of await logGateProblems(dir, log, check, revision)) {
    // A file of the log is a checked file too, so that every output (--json included) names it.
    if (!check.files.some((checked) => checked.file === problem.file))
      check.files.push({ file: problem.file, umid: null });
    check.diagnostics.push(problem);
  }
}
