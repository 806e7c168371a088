/**
 * The messages core/validate/schema-problems.ts words as ajv does (the generated
 * validators go without ajv's messages) are ajv's own, for every such keyword.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { problemsOf } from "../../core/validate/schema-problems.ts";

const IN_AJVS_WORDS = [
  "type",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "contains",
  "oneOf",
  "propertyNames",
];

test("the messages in ajv's words are ajv's", () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile({
    properties: {
      type: { type: "string" },
      types: { type: ["object", "null"] },
      minLength: { minLength: 2 },
      maxLength: { maxLength: 1 },
      minItems: { minItems: 2 },
      maxItems: { maxItems: 1 },
      minimum: { minimum: 1 },
      maximum: { maximum: 1 },
      contains: { contains: { type: "integer" } },
      containsAtMost: { contains: { type: "integer" }, minContains: 2, maxContains: 3 },
      oneOf: { oneOf: [{}, {}] },
      propertyNames: { propertyNames: { minLength: 2 } },
    },
  });
  const value = {
    type: 1,
    types: 1,
    minLength: "a",
    maxLength: "ab",
    minItems: [1],
    maxItems: [1, 2],
    minimum: 0,
    maximum: 2,
    contains: ["x"],
    containsAtMost: [1],
    oneOf: 1,
    propertyNames: { a: 1 },
  };
  const problems = problemsOf(validate, {})(value);
  assert.deepEqual(
    problems.map((p) => [p.rule, p.message]),
    validate.errors!.map((e) => [`schema/${e.keyword}`, e.message]),
  );
  const rules = new Set<string>(problems.map((p) => p.rule));
  for (const keyword of IN_AJVS_WORDS) assert.ok(rules.has(`schema/${keyword}`), `no ${keyword} error to compare`);
});
