/**
 * `manifest-resolver check`: the build's validation, without writing anything; with
 * `--base`, also what the change does to what the resolver already answered, which a pull
 * request must not rewrite (revocation is permanent: EXT-OPT O2.3).
 */
import { offlineChosen, verificationCacheOff } from "./deprecated-spelling.ts";
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { excerpt } from "../../core/excerpt.ts";
import { isDateTime } from "../../core/date-time.ts";
import { checkedProjectSettings } from "./project-settings.ts";
import { CONFIG_FILE } from "../config.ts";
import {
  addLogProblems,
  checkContent,
  checkPaths,
  type ContentCheck,
  historyJudgements,
  isListFile,
  logStates,
  earlyOnlineKeys,
  openCache,
  saveCache,
} from "../pipeline/index.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { fromCache, hasErrors, plural, sortDiagnostics, type Diagnostic } from "../report/diagnostics.ts";
import { jsonLines } from "../report/json.ts";
import { printProblems } from "../report/problem-report.ts";
import { Progress } from "../report/progress.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { sarifFile, writeSarif } from "./sarif-option.ts";
import { globalFetch } from "../../core/http/fetch-following.ts";
import type { check } from "./check-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runCheck: CommandRun<typeof check> = async (values, [paths]) => {
  const nowText = values.now;
  if (typeof nowText === "string" && !isDateTime(nowText)) {
    throw new UsageError(`--now must be an RFC 3339 date-time such as 2027-01-01T00:00:00Z, not '${excerpt(nowText)}'`);
  }
  const now = typeof nowText === "string" ? new Date(nowText) : new Date();
  const contentDir = values.content;
  const base = values.base;
  const summaryFile = values.summary;
  const shown = values["max-problems"];
  const sarif = sarifFile(values.sarif);
  const offline = offlineChosen("check", values);
  const compares = base !== undefined || summaryFile !== undefined;
  if (compares && paths.length > 0)
    throw new UsageError(
      "--base and --summary compare the whole content folder: name it with --content DIR, not as a PATH",
    );
  if (summaryFile !== undefined && !existsSync(dirname(summaryFile)))
    throw new UsageError(`--summary: there is no folder ${dirname(summaryFile)} to write ${summaryFile} in`);
  const history = compares ? await historyJudgements() : undefined;
  // Before the check, which may take minutes: a revision that cannot be read is a usage error.
  const revision =
    history && base !== undefined
      ? await history.resolveRevision(contentDir, base).catch((error: unknown) => {
          throw error instanceof history.RevisionError ? new UsageError(error.message) : error;
        })
      : undefined;
  const progress = new Progress(process.stderr, "checking");
  const cache = openCache(verificationCacheOff("check", values), false);
  const states = cache && logStates(cache.dir);
  // The settings file is checked as a file of the change: a secret or a bad value in it fails the run.
  const { settings, checked: config } = checkedProjectSettings();
  const options = {
    settings,
    now,
    strict: values.strict === true,
    progress: (checked: number, total: number) => progress.update(checked, total),
    ...(cache && { cache }),
  };
  // The whole content folder, read as the build reads it (what it serves, for the log's gate), or the PATHs: a
  // content folder among them is judged as the build judges it, its log included.
  const whole = compares || paths.length === 0;
  const online = offline ? undefined : earlyOnlineKeys(options.settings.resolverUrl, now, globalFetch);
  const hooks = online === undefined ? {} : { pinned: online.pinned };
  const result = await (whole
    ? checkContent(contentDir, options, hooks)
    : checkPaths(
        paths,
        {
          ...options,
          contentDir,
          allowUnsigned: values["allow-unsigned"],
          judgeRoot: (dir, check) => addLogProblems(dir, check, states),
        },
        hooks,
      )
  ).finally(() => progress.stop());
  saveCache(cache);
  if (config.file !== undefined) {
    result.files.push({ file: config.file, umid: null });
    result.diagnostics.push(...config.diagnostics);
  }
  if (whole) await addLogProblems(contentDir, result, states, revision);
  if (online !== undefined) result.diagnostics.push(...(await online.problems(result.pinned)));
  if (history !== undefined) {
    const markdown = await history.addHistoryProblems(
      result,
      contentDir,
      options.settings,
      config,
      revision,
      summaryFile !== undefined,
      () => summary(result.files, result.diagnostics),
    );
    if (markdown !== undefined)
      await writeFileAtomically(summaryFile!, markdown).catch((error: Error) => {
        throw new UsageError(`--summary: cannot write ${summaryFile}: ${error.message}`);
      });
  }
  const diagnostics = sortDiagnostics(result.diagnostics);
  if (sarif !== undefined) await writeSarif(sarif, diagnostics);

  if (values.json === true) {
    for (const line of jsonLines(result.files, diagnostics)) console.log(line);
  } else {
    printProblems(diagnostics, { maxProblems: shown, write: (line) => console.log(line) });
    console.log(summary(result.files, diagnostics, result.recalled));
  }
  return hasErrors(diagnostics) ? EXIT_FAILED : EXIT_OK;
};

function summary(files: ContentCheck["files"], diagnostics: Diagnostic[], recalled = 0): string {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.length - errors.length;
  const failed = new Set(errors.map((d) => d.file)).size;
  const found = errors.length === 0 ? "no errors" : `${plural(errors.length, "error")} in ${plural(failed, "file")}`;
  return (
    `Checked ${checkedFiles(files)}${fromCache(recalled)}: ` +
    `${found}${warnings > 0 ? `, ${plural(warnings, "warning")}` : ""}.`
  );
}

/**
 * "500 manifests and 2 list files": only a file checked as a manifest is one. List files (_keys.json, _routes.json,
 * _unsigned.json, _resolvers.json, each of _status/) are not, though a list of _status/ is named like one; nor is the
 * settings file (manifest-resolver.json), nor a private key found among them.
 */
function checkedFiles(files: ContentCheck["files"]): string {
  const count = { manifest: 0, "list file": 0, "settings file": 0, "other file": 0 };
  for (const { file, umid, manifest } of files) {
    const kind = manifest || umid !== null ? "manifest" : isListFile(file) ? "list file" : undefined;
    count[kind ?? (basename(file) === CONFIG_FILE ? "settings file" : "other file")]++;
  }
  const parts = Object.entries(count).flatMap(([kind, n], i) => (n > 0 || i === 0 ? [plural(n, kind)] : []));
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
