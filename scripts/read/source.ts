/** One content file's text as a JSON document: parsed strictly, validated, problems placed. */
import { placeInSource, sourceLocator, type Diagnostic, type Severity } from "../report/diagnostics.ts";
import { lineColumn, parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import type { Validate } from "../../core/validate/schema-problems.ts";
import type { Problem } from "../../core/validate/problem.ts";
import type { RuleId } from "../../core/rules/index.ts";

/** A file's name and text, to place a diagnostic in it. */
export interface SourceFile {
  file: string;
  text: string;
}

export interface Parsed {
  text: string;
  value: unknown;
  diagnostics: Diagnostic[];
}

/** Strict JSON within the shape limits, then a schema, with every problem placed in the source. */
export function parseAndValidate(file: string, text: string, limits: ShapeLimits, validate: Validate): Parsed {
  const parsed = parseJson(text, limits);
  if (!parsed.ok) {
    const { rule, message, offset } = parsed.problem;
    return {
      text,
      value: undefined,
      diagnostics: [{ severity: "error", file, rule, message, ...lineColumn(text, offset) }],
    };
  }
  const diagnostics = validate(parsed.value).map((p) => diagnostic(file, "error", p));
  placeInSource(text, diagnostics);
  return { text, value: parsed.value, diagnostics };
}

export function diagnostic(file: string, severity: Severity, problem: Problem): Diagnostic {
  return { severity, file, ...problem };
}

/** An error at `pointer` of a file, with its line and column. */
export function placed(source: SourceFile, pointer: string, rule: RuleId, message: string): Diagnostic {
  return { severity: "error", file: source.file, rule, message, pointer, ...locate(source, pointer) };
}

/** `file:line:col` of `pointer`, to name the other place in a message. */
export function placeOf(source: SourceFile, pointer: string): string {
  const { line, column } = locate(source, pointer);
  return `${source.file}:${line}:${column}`;
}

/** One locator per source: `_routes.json` of a large registry may have a problem per entry, and each would parse it again. */
const locators = new WeakMap<SourceFile, ReturnType<typeof sourceLocator>>();

function locate(source: SourceFile, pointer: string): { line: number; column: number } {
  let locator = locators.get(source);
  if (locator === undefined) {
    locator = sourceLocator(source.text);
    locators.set(source, locator);
  }
  return locator(pointer);
}
