/** `manifest-resolver check`: the build's validation, without writing anything. */
import { isDateTime } from "../../core/validate/cross-field.ts";
import { settingsFromEnv } from "../config.ts";
import { checkPaths } from "../content/check-content.ts";
import { defaultContentDir } from "../content/content-root.ts";
import { hasErrors, plural, printable, printDiagnostics, type Diagnostic } from "../diagnostics.ts";
import { EXIT_FAILED, EXIT_OK, stringOption, UsageError, type Command } from "./command.ts";

export const check: Command = {
  name: "check",
  summary: "validate manifests, _routes.json and _keys.json without writing anything",
  help: `Usage: manifest-resolver check [PATH...] [--json] [--now DATE-TIME] [--strict]
                              [--content DIR] [--allow-unsigned FILE]...

Validates what 'manifest-resolver build' validates and writes nothing. A PATH is a
content directory (its manifests, _keys.json, _unsigned.json, _routes.json and the rules
across them) or a file or folder in one, judged as the build judges it, by the content
folder's _keys.json and _unsigned.json. With no PATH, the repository's content folder.

Problems are printed as 'file:line:col - error RULE: message at /json/pointer', then a
summary; under GitHub Actions (GITHUB_ACTIONS=true) also as annotations.

Options:
  --json            one JSON object per checked file per line, and nothing else:
                    {"file","umid","ok","errors":[{"rule","message","pointer","line","column"}],"warnings":[...]}
  --now DATE-TIME   the clock for expiry warnings (RFC 3339), for reproducible runs
  --strict          an expired or not yet issued manifest is an error, not a warning,
                    and so are manifests checked with no _keys.json to pin their keys
  --content DIR     the content folder FILEs belong to (default: the repository's content/)
  --allow-unsigned FILE
                    check FILE, a payload whose version defines no verifiable signature
                    (v0.1), as if opted in: for files outside a content folder only (in
                    one, _unsigned.json alone opts in, as for the build); repeatable

Environment: as for 'manifest-resolver build --help'.

Exit status: 0 no errors, 1 errors found, 2 usage error.

Example:
  manifest-resolver check content/people/alice.jsonld --now 2027-01-01T00:00:00Z`,
  options: {
    json: { type: "boolean" },
    now: { type: "string" },
    strict: { type: "boolean" },
    content: { type: "string" },
    "allow-unsigned": { type: "string", multiple: true },
  },
  async run(values, positionals) {
    const nowText = values.now;
    if (typeof nowText === "string" && !isDateTime(nowText)) {
      throw new UsageError(`--now must be an RFC 3339 date-time such as 2027-01-01T00:00:00Z, not '${nowText}'`);
    }
    const now = typeof nowText === "string" ? new Date(nowText) : new Date();
    const contentDir = stringOption(values, "content", defaultContentDir());
    const result = await checkPaths(positionals.length > 0 ? positionals : [contentDir], {
      settings: settingsFromEnv(),
      now,
      strict: values.strict === true,
      contentDir,
      allowUnsigned: (values["allow-unsigned"] as string[] | undefined) ?? [],
    });

    if (values.json === true) {
      for (const { file, umid } of result.files) {
        const mine = result.diagnostics.filter((d) => d.file === file);
        const errors = mine.filter((d) => d.severity === "error").map(problemJson);
        const warnings = mine.filter((d) => d.severity === "warning").map(problemJson);
        console.log(printable(JSON.stringify({ file, umid, ok: errors.length === 0, errors, warnings })));
      }
    } else {
      printDiagnostics(result.diagnostics, (line) => console.log(line));
      console.log(summary(result.files.length, result.diagnostics));
    }
    return hasErrors(result.diagnostics) ? EXIT_FAILED : EXIT_OK;
  },
};

function problemJson(d: Diagnostic) {
  return { rule: d.rule, message: d.message, pointer: d.pointer ?? null, line: d.line ?? null, column: d.column ?? null };
}

function summary(fileCount: number, diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.length - errors.length;
  const failed = new Set(errors.map((d) => d.file)).size;
  const found = errors.length === 0 ? "no errors" : `${plural(errors.length, "error")} in ${plural(failed, "file")}`;
  return `Checked ${plural(fileCount, "file")}: ${found}${warnings > 0 ? `, ${plural(warnings, "warning")}` : ""}.`;
}
