/**
 * What `check --base` and `--summary` judge against an earlier revision: the history rules
 * (scripts/history/), what a change may not do to what the resolver already answered, and
 * the change's summary. Loaded through index.ts's historyJudgements: a plain check needs none of it.
 */
import { appendAll } from "../../core/append-all.ts";
import type { ContentCheck } from "../check/check-content.ts";
import type { Settings } from "../config.ts";
import { summaryMarkdown } from "../history/change-summary.ts";
import type { Revision } from "../history/git-revision.ts";
import { historyProblems } from "../history/history-rules.ts";
import { emptyState, stateAt, stateNow } from "../history/resolver-state.ts";
import { schemaValidators } from "../validate/schema-validator.ts";

export { resolveRevision, RevisionError } from "../history/git-revision.ts";

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
