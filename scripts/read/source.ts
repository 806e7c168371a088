/** One content file's text as a JSON document: parsed strictly, validated, problems placed. */
import { diagnostic, placeInSource, type Diagnostic, type Severity } from "../report/diagnostics.ts";
import { type JsonParseResult, parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import { lineColumn, type Place, type SourceMap } from "../../core/json/source-map.ts";
import type { Validate } from "../../core/validate/schema-problems.ts";
import type { Problem } from "../../core/validate/problem.ts";
import type { RuleId } from "../../core/rules/index.ts";

/** A file's name and, when it parsed, where its values are: to place a diagnostic in it. */
export interface SourceFile {
  file: string;
  map?: SourceMap;
}

export interface Parsed {
  text: string;
  value: unknown;
  /** Where the values are, when the text parsed. */
  map?: SourceMap;
  diagnostics: Diagnostic[];
}

/** Strict JSON within the shape limits, then a schema, with every problem placed in the source. */
export function parseAndValidate(file: string, text: string, limits: ShapeLimits, validate: Validate): Parsed {
  return validated(file, text, parseJson(text, limits), validate);
}

/** A text's parse (`parsed`), then a schema, with every problem placed in the source. */
export function validated(file: string, text: string, parsed: JsonParseResult, validate: Validate): Parsed {
  if (!parsed.ok) {
    const { rule, message, offset } = parsed.problem;
    return {
      text,
      value: undefined,
      diagnostics: [diagnostic(rule, { file, ...lineColumn(text, offset) }, message)],
    };
  }
  const diagnostics = validate(parsed.value).map((p) => problemDiagnostic(file, "error", p));
  placeInSource(parsed.source, diagnostics);
  return { text, value: parsed.value, map: parsed.source, diagnostics };
}

/** A problem a core rule found in `file`, of the severity the caller judges it (freshness: by --strict). */
export function problemDiagnostic(file: string, severity: Severity, problem: Problem): Diagnostic {
  return diagnostic(problem.rule, { file, pointer: problem.pointer }, problem.message, severity);
}

/** An error at `pointer` of a file, with its line and column when the file parsed. */
export function placed(source: SourceFile, pointer: string, rule: RuleId, message: string): Diagnostic {
  return placedAt(source.file, source.map?.place(pointer), pointer, rule, message);
}

/** An error at `pointer` of `file`, which is at `place` there. */
export function placedAt(
  file: string,
  place: Place | undefined,
  pointer: string,
  rule: RuleId,
  message: string,
): Diagnostic {
  return diagnostic(rule, { file, pointer, ...place }, message);
}

/** `file:line:col` of `pointer` (the file alone if it did not parse), to name the other place in a message. */
export function placeOf(source: SourceFile, pointer: string): string {
  return source.map === undefined ? source.file : filePlace(source.file, source.map.place(pointer));
}

/** `file:line:col`. */
export function filePlace(file: string, { line, column }: Place): string {
  return `${file}:${line}:${column}`;
}
