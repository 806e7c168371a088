/**
 * What `check` judges of a whole content folder beyond its files: the transparency log's
 * gate (scripts/log/log-gate.ts), judged only with all of the content, since the log records
 * what the whole of it serves; and, against an earlier revision (`--base`), the history
 * rules (scripts/history/): what a change may not do to what the resolver already answered.
 */
import { appendAll } from "../../core/append-all.ts";
import type { ContentCheck } from "../check/check-content.ts";
import type { Settings } from "../config.ts";
import { summaryMarkdown } from "../history/change-summary.ts";
import type { Revision } from "../history/git-revision.ts";
import { historyProblems } from "../history/history-rules.ts";
import { emptyState, stateAt, stateNow } from "../history/resolver-state.ts";
import { openContentLog } from "../log/log-folder.ts";
import { logGateProblems } from "../log/log-gate.ts";
import type { StateStore } from "../log/state-store.ts";
import { schemaValidators } from "../validate/schema-validator.ts";

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

/**
 * Adds the history rules' errors against `revision` to `result`, as diagnostics of the files they name (so that
 * --json lists them too); then, when `summarized`, returns the change's summary in Markdown, ending with `footer()`
 * (called once they are in). Without a revision there is no history to keep, only a summary against nothing.
 */
export async function addHistoryProblems(
  result: ContentCheck,
  contentDir: string,
  settings: Settings,
  revision: Revision | undefined,
  summarized: boolean,
  footer: () => string,
): Promise<string | undefined> {
  const before =
    revision === undefined
      ? emptyState()
      : await stateAt(
          revision,
          contentDir,
          settings.limits,
          schemaValidators(settings.contextUrl, settings.resolverUrl),
          summarized,
          settings.resolverUrl,
        );
  const now = stateNow(result, contentDir);
  const listed = new Set(result.files.map((checked) => checked.file));
  const findings = revision === undefined ? [] : historyProblems(before, now, revision.name);
  for (const { file, umid, diagnostics } of findings) {
    if (!listed.has(file)) result.files.push({ file, umid });
    appendAll(result.diagnostics, diagnostics);
  }
  return summarized ? summaryMarkdown(before, now, revision?.name, footer()) : undefined;
}
