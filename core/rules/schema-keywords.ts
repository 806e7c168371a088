/**
 * The JSON Schema keywords an error of our schemas can name (ajv's `keyword`): each is a
 * rule, `schema/<keyword>`. A table of its own, a few bytes, since the evaluator needs it
 * at run time and must not carry the registry's prose (schema.ts) into a browser.
 * tests/unit/rules.test.ts holds it to the schemas: every keyword they use that ajv
 * reports is listed, and nothing else.
 */
export const SCHEMA_KEYWORDS = [
  "additionalProperties",
  "anyOf",
  "const",
  "contains",
  "enum",
  "format",
  "maxItems",
  "maxLength",
  "maximum",
  "minItems",
  "minLength",
  "minimum",
  "oneOf",
  "pattern",
  "propertyNames",
  "redirect-location",
  "required",
  "type",
] as const;

export type SchemaKeyword = (typeof SCHEMA_KEYWORDS)[number];

export function isSchemaKeyword(keyword: string): keyword is SchemaKeyword {
  return (SCHEMA_KEYWORDS as readonly string[]).includes(keyword);
}
