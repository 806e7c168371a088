/**
 * A JSON Schema validator's errors (ajv's, whether compiled at run time or generated ahead
 * of time) turned into problems a publisher can act on: one per fault, with the JSON
 * pointer of the value at fault. Shared by `check` and the evaluator, so that both say the
 * same thing about the same fault.
 *
 * ajv runs without `verbose`, which would put the value and the subschema in every error
 * object it can report, and so in the code generated ahead of time for a browser: the
 * value at fault is read from the value validated instead, and the few descriptions a
 * message quotes come with the validator (SchemaDescriptions).
 */
import { quoted } from "../excerpt.ts";
import { escapePointerToken, valueAtPointer } from "../json/pointer.ts";
import { isSchemaKeyword, type SchemaKeyword } from "../rules/schema-keywords.ts";
import { noSuchDate } from "../date-time.ts";
import type { Problem } from "./problem.ts";
import type { GeneratedValidator, SchemaDescriptions, SchemaError } from "./generated/validator.ts";

/** The keywords whose message quotes the description of their subschema, when it has one. */
export const DESCRIBED_KEYWORDS = ["anyOf", "format", "pattern"] as const;

export type Validate = (value: unknown) => Problem[];

export function problemsOf(validate: GeneratedValidator, descriptions: SchemaDescriptions): Validate {
  return (value) => (validate(value) ? [] : schemaProblems(validate.errors ?? [], value, descriptions));
}

function schemaProblems(errors: SchemaError[], value: unknown, descriptions: SchemaDescriptions): Problem[] {
  // A failed anyOf is reported once, in its own words, not once per branch that failed.
  const anyOfs = errors.filter((e) => e.keyword === "anyOf");
  const insideAnyOf = (e: SchemaError) =>
    anyOfs.some(
      (a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`) && e.instancePath.startsWith(a.instancePath),
    );
  return errors
    .filter((e) => e.keyword !== "if" && !insideAnyOf(e))
    .map((e) => {
      const keyword = schemaKeyword(e.keyword);
      return { pointer: pointerOf(e), rule: `schema/${keyword}`, message: messageOf(e, keyword, value, descriptions) };
    });
}

/** A keyword reported: our schemas use no other (tests/unit/rules.test.ts), so another is a bug here. */
function schemaKeyword(keyword: string): SchemaKeyword {
  if (!isSchemaKeyword(keyword))
    throw new Error(
      `a schema reported the keyword ${JSON.stringify(keyword)}, which core/rules/schema-keywords.ts lacks`,
    );
  return keyword;
}

function pointerOf(e: SchemaError): string {
  if (e.keyword === "additionalProperties")
    return `${e.instancePath}/${escapePointerToken(e.params.additionalProperty as string)}`;
  return e.instancePath;
}

/** The description of the subschema whose keyword reported `e` (a schemaPath is a URI fragment). */
function descriptionOf(e: SchemaError, descriptions: SchemaDescriptions): string | undefined {
  return descriptions[decodeURIComponent(e.schemaPath.slice(1, e.schemaPath.lastIndexOf("/")))];
}

function messageOf(e: SchemaError, keyword: SchemaKeyword, value: unknown, descriptions: SchemaDescriptions): string {
  // The value the error is about. (Not so within `propertyNames`, whose errors point at the object, not at the
  // name: our schemas ask only a length of names there, and its message quotes no value.)
  const data = valueAtPointer(value, e.instancePath);
  if (keyword === "format" && e.params.format === "date-time" && typeof data === "string") {
    return `${noSuchDate(data) ?? "must be an RFC 3339 date-time such as 2026-11-23T09:00:00Z"}, found ${quoted(data)}`;
  }
  switch (keyword) {
    case "required":
      return `missing required member ${JSON.stringify(e.params.missingProperty)}`;
    case "additionalProperties":
      return `unknown member ${quoted(e.params.additionalProperty)}: this object allows no other members`;
    case "const":
      return `must be ${JSON.stringify(e.params.allowedValue)}, found ${quoted(data)}`;
    case "enum":
      return (
        `must be one of ` +
        `${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, ` +
        `found ${quoted(data)}`
      );
    case "anyOf":
      return descriptionOf(e, descriptions) ?? "must match one of the allowed shapes";
    case "format":
    case "pattern":
      return (
        `${descriptionOf(e, descriptions) ?? `must be a valid ${e.params.format ?? `string matching ${e.params.pattern}`}`}, ` +
        `found ${quoted(data)}`
      );
    case "redirect-location":
      return e.message ?? keyword;
    // ajv's own words (tests/unit/schema-messages.test.ts).
    case "type":
      return `must be ${e.params.type}`;
    case "minLength":
      return `must NOT have fewer than ${e.params.limit} characters`;
    case "maxLength":
      return `must NOT have more than ${e.params.limit} characters`;
    case "minItems":
      return `must NOT have fewer than ${e.params.limit} items`;
    case "maxItems":
      return `must NOT have more than ${e.params.limit} items`;
    case "minimum":
    case "maximum":
      return `must be ${e.params.comparison} ${e.params.limit}`;
    case "contains":
      return e.params.maxContains === undefined
        ? `must contain at least ${e.params.minContains} valid item(s)`
        : `must contain at least ${e.params.minContains} and no more than ${e.params.maxContains} valid item(s)`;
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "propertyNames":
      return "property name must be valid";
  }
}
