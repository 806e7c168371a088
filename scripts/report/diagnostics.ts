/**
 * A problem found, in one shape for every check and command: a rule of the registry
 * (core/rules/), its severity, where (file, JSON pointer, line and column) and what. The
 * printers are views of it: text.ts (`file:line:col - error RULE: message`), json.ts
 * (`check --json`), github.ts (workflow annotations), sarif.ts (`--sarif FILE`).
 */
import type { SourceMap } from "../../core/json/source-map.ts";
import { RULES, type RuleId, type Severity } from "../../core/rules/index.ts";

export type { Severity } from "../../core/rules/index.ts";

export interface Diagnostic {
  severity: Severity;
  file: string;
  rule: RuleId;
  message: string;
  /** JSON pointer of the offending value; undefined for problems of the file as a whole. */
  pointer?: string;
  line?: number;
  column?: number;
}

/** Where a problem is: a file, and in it a JSON pointer, a line and column, where known. */
type Place = Pick<Diagnostic, "file" | "pointer" | "line" | "column">;

/** A diagnostic of `rule`, of the rule's severity unless `severity` says otherwise. */
export function diagnostic(
  rule: RuleId,
  where: Place,
  message: string,
  severity: Severity = RULES[rule].severity,
): Diagnostic {
  const { file, pointer, line, column } = where;
  return {
    severity,
    file,
    rule,
    message,
    ...(pointer !== undefined && { pointer }),
    ...(line !== undefined && { line }),
    ...(column !== undefined && { column }),
  };
}

/**
 * In the order the files were checked, and within a file by line and column, as tsc and
 * eslint list them: problems of the file as a whole first. The sort is stable: problems
 * at one place keep the order the rules found them in.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const fileOrder = new Map<string, number>();
  for (const d of diagnostics) if (!fileOrder.has(d.file)) fileOrder.set(d.file, fileOrder.size);
  return [...diagnostics].sort(
    (a, b) =>
      fileOrder.get(a.file)! - fileOrder.get(b.file)! ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** How many problems each rule found, most first: `signature/invalid ×312, schema/required ×40`. */
export function countsByRule(diagnostics: readonly Diagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of diagnostics) counts.set(d.rule, (counts.get(d.rule) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([rule, n]) => `${printable(rule)} ×${n}`)
    .join(", ");
}

/**
 * Control, line-break and bidirectional formatting characters (C0, DEL, C1, U+2028,
 * U+2029, U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and the `[` of `##[`,
 * written as visible escapes. File names, UMIDs and values quoted in messages come from
 * content an attacker may write: a line break would start a line of their own (under
 * GitHub Actions, a workflow command), `##[` is a workflow command wherever it stands in
 * a line (the runner's older syntax), and a bidirectional override would show the reader
 * other text than what is there. The escapes are JSON's (`\n`, `\u202e`), so a JSON line
 * stays valid JSON with the same values.
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => ESCAPES[c] ?? (c === "##[" ? "##\\u005b" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|##\[/g;
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A file name as printed at the start of a line: escaped, and never starting with ":" or
 * white space, since the runner takes a line whose first non-blank characters are "::" for
 * a workflow command.
 */
export function printableFile(file: string): string {
  return printable(/^[\s:]/.test(file) ? `./${file}` : file);
}

/** Fills in line and column for the diagnostics that carry a pointer into the document `map` was recorded for. */
export function placeInSource(map: SourceMap, diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.pointer !== undefined && d.line === undefined) Object.assign(d, map.place(d.pointer));
  }
}

export function summarize(diagnostics: Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const files = new Set(errors.map((d) => d.file)).size;
  return `Found ${plural(errors.length, "error")} in ${plural(files, "file")}.`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export const hasErrors = (diagnostics: Diagnostic[]) => diagnostics.some((d) => d.severity === "error");
