/**
 * A problem found, in one shape for every check and command: a rule of the registry
 * (core/rules/), its severity, where (file, JSON pointer, line and column) and what. The
 * printers are views of it: text.ts (`file:line:col - error RULE: message`), json.ts
 * (`check --json`), github.ts (workflow annotations), sarif.ts (`--sarif FILE`).
 */
import type { SourceMap } from "../../core/json/source-map.ts";
import { RULES, type RuleId, type Severity } from "../../core/rules/index.ts";
import { printable } from "./printable.ts";

export { printable, printableFile } from "./printable.ts";

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

/** What a run's summary says of the files the cache knew: nothing when none. */
export function fromCache(recalled: number): string {
  return recalled === 0 ? "" : ` (${plural(recalled, "manifest")} unchanged, from the cache)`;
}
