/**
 * What a command printed, read back as data: tests assert which rule fired where, the exit
 * status, and the values a message names, never how a message is worded, so that a message
 * can be reworded without touching the tests. The printers' own formats are tested once, in
 * tests/unit/diagnostics.test.ts.
 */
import assert from "node:assert/strict";

/** One problem of the text format, `file:line:col - severity RULE: message`. */
export interface PrintedProblem {
  file: string;
  severity: "error" | "warning";
  rule: string;
  /** Absent for a problem of the file as a whole. */
  line?: number;
  column?: number;
  /** The rest of the line, for the values it names (a file, a place, a UMID), not for its words. */
  message: string;
}

// The file is the shortest prefix followed by an optional place and " - error RULE: ".
const PROBLEM =
  /^(?<file>.+?)(?::(?<line>\d+):(?<column>\d+))? - (?<severity>error|warning) (?<rule>[\w.-]+\/[\w.-]+): /;

/**
 * Every problem line of `text`, in printed order; code frames, hints, summaries and annotations are not problem
 * lines.
 */
export function printedProblems(text: string): PrintedProblem[] {
  return text.split("\n").flatMap((line): PrintedProblem[] => {
    const match = line.startsWith("::") ? null : PROBLEM.exec(line);
    if (match === null) return [];
    const { file, line: at, column, severity, rule } = match.groups!;
    return [
      {
        file: file!,
        severity: severity as PrintedProblem["severity"],
        rule: rule!,
        ...(at !== undefined && { line: Number(at), column: Number(column) }),
        message: line.slice(match[0].length),
      },
    ];
  });
}

/** One line of `check --json`: a checked file and its problems. */
export interface CheckedFile {
  file: string;
  umid: string | null;
  ok: boolean;
  errors: CheckedProblem[];
  warnings: CheckedProblem[];
}

export interface CheckedProblem {
  rule: string;
  message: string;
  pointer: string | null;
  line: number | null;
  column: number | null;
}

/** The lines of `check --json`, parsed. */
export const checkedFiles = (stdout: string): CheckedFile[] =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as CheckedFile);

/** Each problem as `[file, rule, line, column]` (`[file, rule]` for a file as a whole), for deepEqual. */
export function problemPlaces(text: string, severity: PrintedProblem["severity"] = "error"): (string | number)[][] {
  return printedProblems(text)
    .filter((p) => p.severity === severity)
    .map((p) => (p.line === undefined ? [p.file, p.rule] : [p.file, p.rule, p.line, p.column!]));
}

/** The one problem of `text` with `rule` (of `file`, when given), failing the test unless there is exactly one. */
export function theProblem(text: string, rule: string, file?: string): PrintedProblem {
  const found = printedProblems(text).filter((p) => p.rule === rule && (file === undefined || p.file === file));
  assert.equal(found.length, 1, `one ${rule} problem${file === undefined ? "" : ` of ${file}`} in:\n${text}`);
  return found[0]!;
}

/**
 * Asserts a usage error: exit status 2, and stderr `manifest-resolver: …` on a line that
 * names each of `named` (the option, setting or value refused: data, not wording).
 */
export function assertUsageError(result: { status: number | null; stderr: string }, ...named: string[]): void {
  assert.equal(result.status, 2, result.stderr);
  assert.ok(result.stderr.startsWith("manifest-resolver: "), result.stderr);
  assertLineNames(result.stderr, ...named);
}

/** Asserts that one line of `text` names each of `named`: values (a file, an option, a UMID, a URL), not words. */
export function assertLineNames(text: string, ...named: string[]): void {
  assert.ok(
    text.split("\n").some((line) => named.every((value) => line.includes(value))),
    `no line names ${named.map((value) => JSON.stringify(value)).join(", ")} in:\n${text}`,
  );
}
