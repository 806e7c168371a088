/**
 * A JSON Schema validator's errors (ajv's, whether compiled at run time or generated ahead
 * of time) turned into problems a publisher can act on: one per fault, with the JSON
 * pointer of the value at fault. Shared by `check` and the evaluator, so that both say the
 * same thing about the same fault.
 */
import { quoted } from "../excerpt.ts";
import { escapePointerToken } from "../json/strict-json.ts";
import { isSchemaKeyword, type SchemaKeyword } from "../rules/schema-keywords.ts";
import { noSuchDate } from "./calendar-date.ts";
import type { Problem } from "./problem.ts";

/** The members of an ajv error object (with `verbose`) that the messages need. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
  parentSchema?: unknown;
}

/** A validation function as ajv generates it: true, or false with `errors` set. */
export interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: SchemaError[] | null;
}

export type Validate = (value: unknown) => Problem[];

export function problemsOf(validate: GeneratedValidator): Validate {
  return (value) => (validate(value) ? [] : schemaProblems(validate.errors ?? []));
}

function schemaProblems(errors: SchemaError[]): Problem[] {
  // A failed anyOf is reported once, in its own words, not once per branch that failed.
  const anyOfs = errors.filter((e) => e.keyword === "anyOf");
  const insideAnyOf = (e: SchemaError) =>
    anyOfs.some(
      (a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`) && e.instancePath.startsWith(a.instancePath),
    );
  return errors
    .filter((e) => e.keyword !== "if" && !insideAnyOf(e))
    .map((e) => ({ pointer: pointerOf(e), rule: schemaRule(e.keyword), message: messageOf(e) }));
}

/** The rule of a keyword: our schemas use no other (tests/unit/rules.test.ts), so another is a bug here. */
function schemaRule(keyword: string): `schema/${SchemaKeyword}` {
  if (!isSchemaKeyword(keyword))
    throw new Error(
      `a schema reported the keyword ${JSON.stringify(keyword)}, which core/rules/schema-keywords.ts lacks`,
    );
  return `schema/${keyword}`;
}

function pointerOf(e: SchemaError): string {
  if (e.keyword === "additionalProperties")
    return `${e.instancePath}/${escapePointerToken(e.params.additionalProperty as string)}`;
  return e.instancePath;
}

function messageOf(e: SchemaError): string {
  const description = (e.parentSchema as { description?: string } | undefined)?.description;
  if (e.keyword === "format" && e.params.format === "date-time" && typeof e.data === "string") {
    return (
      `${noSuchDate(e.data) ?? "must be an RFC 3339 date-time such as 2026-11-23T09:00:00Z"}, ` +
      `found ${quoted(e.data)}`
    );
  }
  switch (e.keyword) {
    case "required":
      return `missing required member ${JSON.stringify(e.params.missingProperty)}`;
    case "additionalProperties":
      return `unknown member ${quoted(e.params.additionalProperty)}: this object allows no other members`;
    case "const":
      return `must be ${JSON.stringify(e.params.allowedValue)}, found ${quoted(e.data)}`;
    case "enum":
      return (
        `must be one of ` +
        `${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, ` +
        `found ${quoted(e.data)}`
      );
    case "anyOf":
      return description ?? "must match one of the allowed shapes";
    case "format":
    case "pattern":
      return (
        `${description ?? `must be a valid ${e.params.format ?? `string matching ${e.params.pattern}`}`}, ` +
        `found ${quoted(e.data)}`
      );
    default:
      return e.message ?? e.keyword;
  }
}
