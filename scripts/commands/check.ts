/**
 * `manifest-resolver check`: the build's validation, without writing anything; with
 * `--base`, also what the change does to what the resolver already answered, which a pull
 * request must not rewrite (revocation is permanent: EXT-OPT O2.3).
 */
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { excerpt } from "../../core/excerpt.ts";
import { isDateTime } from "../../core/validate/cross-field.ts";
import { settingsFromEnv, type Settings } from "../config.ts";
import { checkContent, checkPaths, type ContentCheck } from "../check/check-content.ts";
import { LIST_FILES } from "../read/files.ts";
import { RESOLVERS_FILE } from "../check/resolvers-document.ts";
import { STATUS_FOLDER } from "../check/status-allocation.ts";
import { writeFileAtomically } from "../edit/json-file.ts";
import { hasErrors, plural, sortDiagnostics, type Diagnostic } from "../report/diagnostics.ts";
import { summaryMarkdown } from "../history/change-summary.ts";
import { resolveRevision, RevisionError, type Revision } from "../history/git-revision.ts";
import { historyProblems } from "../history/history-rules.ts";
import { emptyState, stateAt, stateNow } from "../history/resolver-state.ts";
import { jsonLines } from "../report/json.ts";
import { printProblems } from "../report/problem-report.ts";
import { Progress } from "../report/progress.ts";
import { schemaValidators } from "../validate/schema-validator.ts";
import { defineCommand, EXIT_FAILED, EXIT_OK, UsageError } from "./command.ts";
import { CONTENT_OPTION } from "./content-option.ts";
import { MAX_PROBLEMS_OPTION } from "./max-problems.ts";
import { booleanOption, listOption, stringOption } from "./options.ts";
import { CACHE_OPTION, fromCache, openCache, saveCache } from "./cache-option.ts";
import { SARIF_OPTION, sarifFile, writeSarif } from "./sarif-option.ts";
import { appendAll } from "../../core/append-all.ts";
import { globalFetch } from "../../core/client/fetch-following.ts";
import { onlineKeyProblems } from "../check/online-keys.ts";
import { logGateProblems } from "../log/log-gate.ts";
import { openContentLog } from "../log/log-folder.ts";
import { type LogStates, logStates } from "../log/state-store.ts";

export const check = defineCommand({
  name: "check",
  description: `Validates what 'manifest-resolver build' validates and writes nothing. A PATH is a
content directory (its manifests, _keys.json, _unsigned.json, _routes.json and the rules
across them) or a file or folder in one, judged as the build judges it, by the content
folder's _keys.json and _unsigned.json. With no PATH, the repository's content folder.

Problems are printed on stdout as 'file:line:col - error RULE: message at /json/pointer',
by file and place, with a hint where one command fixes them, then their counts by rule
and a summary; on a terminal, each with its source line, in colour (NO_COLOR, FORCE_COLOR
as usual), and a progress line on stderr past two seconds. Under GitHub Actions
(GITHUB_ACTIONS=true), the first 10 errors and 10 warnings also as annotations (all that
GitHub shows), then a notice of how many more, by rule.`,
  epilogue: `Environment: as for 'manifest-resolver build --help'.

Exit status: 0 no errors, 1 errors found, 2 usage error.

Examples:
  manifest-resolver check content/people/alice/profile.jsonld --now 2027-01-01T00:00:00Z
  manifest-resolver check --base origin/main --summary summary.md`,
  positionals: [{ name: "PATH", repeatable: true }],
  options: {
    json: booleanOption({
      help:
        "one JSON object per checked file per line, and nothing else: " +
        '{"file","umid","ok","errors":[{"rule","message","pointer","line","column"}],"warnings":[...]}',
    }),
    now: stringOption({
      value: "DATE-TIME",
      help: "the clock for expiry warnings (RFC 3339), for reproducible runs",
    }),
    strict: booleanOption({
      help:
        "an expired or not yet issued manifest is an error, not a warning, and so are " +
        "manifests checked with no _keys.json to pin their keys",
    }),
    content: { ...CONTENT_OPTION.content, help: "the content folder FILEs belong to" },
    "allow-unsigned": listOption({
      value: "FILE",
      help:
        "check FILE, a payload whose version defines no verifiable signature (v0.1), as " +
        "if opted in: for files outside a content folder only (in one, _unsigned.json " +
        "alone opts in, as for the build); repeatable",
    }),
    base: stringOption({
      value: "REV",
      help:
        "also compare the content folder on disk with the one committed at REV, a git " +
        "revision (in CI, the pull request's base): a UMID revoked there and not here is " +
        "an error (history/unrevoked: revocation is permanent), and so is one published " +
        "or redirected there that is now neither published, redirected nor revoked " +
        "(history/vanished: it would answer 404), and so is a status change dated no " +
        "later than the status it ends (history/cursor-regressed: clients would refuse " +
        "it as a rollback), and a revokedAt moved, or a suspendedAt or reinstatedAt " +
        "moved earlier (history/revocation-redated, suspension-redated, " +
        "reinstatement-redated: when a status began is history), and so is a transparency " +
        "log (content/_log/) that is not REV's log appended to: removed, truncated, " +
        "rewritten or re-keyed (log/rewritten), and so is a status list entry of " +
        "content/_status/ that REV allocated and is now freed, moved or given to another " +
        "UMID (history/status-entry-freed, -moved, -unrevoked), and a content/_keys.json " +
        "removed, or a pin dropped that REV's manifests were signed under " +
        "(history/keys-removed, pin-removed); a keyRef pinned to another key or pinned anew is a " +
        "warning (history/pin-changed, pin-added), and so is a file opted in anew by " +
        "content/_unsigned.json (history/unsigned-opt-in), and a change to the peers of " +
        "content/_resolvers.json (history/peers-changed); the whole content folder, so no PATH",
    }),
    summary: stringOption({
      value: "FILE",
      help:
        "write FILE, a Markdown table of what the change does to the resolver (UMIDs " +
        "published, changed, revoked, suspended, reinstated, redirected, and whose " +
        "status reason changed, each reason old and new), a signing key pinned anew " +
        "first, even when the check fails; " +
        "without --base, against nothing: all is new",
    }),
    online: booleanOption({
      help:
        "also fetch the DID document of each did:web keyRef _keys.json pins (but those of " +
        "UM_RESOLVER_URL's host, which the build publishes), as a relying party resolves " +
        "it: one that does not list the pinned key under assertionMethod is an error " +
        "(keys/did-web-mismatch), one that cannot be fetched a warning (keys/did-web-unreachable)",
      default: { text: "no network" },
    }),
    ...MAX_PROBLEMS_OPTION,
    ...CACHE_OPTION,
    ...SARIF_OPTION,
  },
  async run(values, [paths]) {
    const nowText = values.now;
    if (typeof nowText === "string" && !isDateTime(nowText)) {
      throw new UsageError(
        `--now must be an RFC 3339 date-time such as 2027-01-01T00:00:00Z, not '${excerpt(nowText)}'`,
      );
    }
    const now = typeof nowText === "string" ? new Date(nowText) : new Date();
    const contentDir = values.content;
    const base = values.base;
    const summaryFile = values.summary;
    const shown = values["max-problems"];
    const sarif = sarifFile(values.sarif);
    const compares = base !== undefined || summaryFile !== undefined;
    if (compares && paths.length > 0)
      throw new UsageError(
        "--base and --summary compare the whole content folder: name it with --content DIR, not as a PATH",
      );
    if (summaryFile !== undefined && !existsSync(dirname(summaryFile)))
      throw new UsageError(`--summary: there is no folder ${dirname(summaryFile)} to write ${summaryFile} in`);
    // Before the check, which may take minutes: a revision that cannot be read is a usage error.
    const revision = base === undefined ? undefined : await resolveRevision(contentDir, base).catch(asUsageError);
    const progress = new Progress(process.stderr, "checking");
    const cache = openCache(values, false);
    const states = cache && (await logStates(cache.dir));
    const options = {
      settings: settingsFromEnv(),
      now,
      strict: values.strict === true,
      progress: (checked: number, total: number) => progress.update(checked, total),
      ...(cache && { cache }),
    };
    // The whole content folder, read as the build reads it (what it serves, for the log's gate), or the PATHs: a
    // content folder among them is judged as the build judges it, its log included.
    const whole = compares || paths.length === 0;
    const result = await (whole
      ? checkContent(contentDir, options)
      : checkPaths(paths, {
          ...options,
          contentDir,
          allowUnsigned: values["allow-unsigned"],
          judgeRoot: (dir, check) => addLogProblems(dir, check, states),
        })
    ).finally(() => progress.stop());
    saveCache(cache);
    if (whole) await addLogProblems(contentDir, result, states, revision);
    if (values.online === true)
      result.diagnostics.push(
        ...(await onlineKeyProblems(result.pinned, options.settings.resolverUrl, now, globalFetch)),
      );
    if (compares) await compareWithRevision(result, contentDir, options.settings, revision, summaryFile);
    const diagnostics = sortDiagnostics(result.diagnostics);
    if (sarif !== undefined) await writeSarif(sarif, diagnostics);

    if (values.json === true) {
      for (const line of jsonLines(result.files, diagnostics)) console.log(line);
    } else {
      printProblems(diagnostics, { maxProblems: shown, write: (line) => console.log(line) });
      console.log(summary(result.files, diagnostics, result.recalled));
    }
    return hasErrors(diagnostics) ? EXIT_FAILED : EXIT_OK;
  },
});

/**
 * Adds the log gate's problems (log-gate.ts) to `check`, the check of the whole content folder `dir`: the log records
 * what the whole content serves, so it is judged only with all of it; against --base's (`revision`), if given.
 */
async function addLogProblems(
  dir: string,
  check: ContentCheck,
  states: LogStates | undefined,
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
 * Adds the history rules' errors to `result`, as diagnostics of the files they name (so
 * that --json lists them too), and writes the summary, if asked for, once they are in.
 */
async function compareWithRevision(
  result: ContentCheck,
  contentDir: string,
  settings: Settings,
  revision: Revision | undefined,
  summaryFile: string | undefined,
): Promise<void> {
  const before =
    revision === undefined
      ? emptyState()
      : await stateAt(
          revision,
          contentDir,
          settings.limits,
          schemaValidators(settings.contextUrl, settings.resolverUrl),
          summaryFile !== undefined,
          settings.resolverUrl,
        );
  const now = stateNow(result, contentDir);
  const listed = new Set(result.files.map((checked) => checked.file));
  // Without --base there is no history to keep, only a summary against nothing.
  const findings = revision === undefined ? [] : historyProblems(before, now, revision.name);
  for (const { file, umid, diagnostics } of findings) {
    if (!listed.has(file)) result.files.push({ file, umid });
    appendAll(result.diagnostics, diagnostics);
  }
  if (summaryFile === undefined) return;
  const markdown = summaryMarkdown(before, now, revision?.name, summary(result.files, result.diagnostics));
  await writeFileAtomically(summaryFile, markdown).catch((error: Error) => {
    throw new UsageError(`--summary: cannot write ${summaryFile}: ${error.message}`);
  });
}

function asUsageError(error: unknown): never {
  throw error instanceof RevisionError ? new UsageError(error.message) : error;
}

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
 * _unsigned.json, _resolvers.json, each of _status/) are not, though a list of _status/ is named like one; nor is a
 * private key found among them.
 */
function checkedFiles(files: ContentCheck["files"]): string {
  const count = { manifest: 0, "list file": 0, "other file": 0 };
  for (const { file, umid, manifest } of files) {
    const name = basename(file);
    const listFile = LIST_FILES.has(name) || name === RESOLVERS_FILE || basename(dirname(file)) === STATUS_FOLDER;
    count[manifest || umid !== null ? "manifest" : listFile ? "list file" : "other file"]++;
  }
  const parts = Object.entries(count).flatMap(([kind, n], i) => (n > 0 || i === 0 ? [plural(n, kind)] : []));
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}
