/**
 * What `check --base` and `--summary` judge against an earlier revision: the history rules
 * (scripts/history/), what a change may not do to what the resolver already answered, and
 * the change's summary. Loaded through index.ts's historyJudgements: a plain check needs none of it.
 */
import { appendAll } from "../../core/append-all.ts";
import type { ContentCheck } from "../check/check-content.ts";
import { join } from "node:path";
import type { ProjectConfigCheck } from "../check/project-config.ts";
import { CONFIG_FILE, type Settings } from "../config.ts";
import { displayPath } from "../read/display-path.ts";
import { hasErrors } from "../report/diagnostics.ts";
import { settingsAt, settingsProblems } from "../history/settings-rule.ts";
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
  settingsFile: ProjectConfigCheck,
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
  // A settings file with an error now has that error to say; one that is gone compares as setting nothing.
  if (revision !== undefined && !hasErrors(settingsFile.diagnostics)) {
    const { root, config } = settingsFile.project;
    const source = settingsFile.source ?? { file: displayPath(join(root, CONFIG_FILE)) };
    const changed = settingsProblems(await settingsAt(revision, root), { config, source }, revision.name);
    if (changed.length > 0 && !listed.has(source.file)) result.files.push({ file: source.file, umid: null });
    appendAll(result.diagnostics, changed);
  }
  return summarized ? summaryMarkdown(before, now, revision?.name, footer()) : undefined;
}
