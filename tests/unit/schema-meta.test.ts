/**
 * Our schemas, valid under JSON Schema 2020-12's meta-schema: each is compiled ahead of
 * time (tools/generate-validators.ts), and a schema the meta-schema refuses fails here, in
 * a test of its own, whatever the generator makes of it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { manifestSchema } from "../../core/validate/manifest-schema.ts";
import { keysSchema } from "../../scripts/validate/keys-schema.ts";
import { routesSchema } from "../../scripts/validate/routes-schema.ts";
import { unsignedSchema } from "../../scripts/validate/unsigned-schema.ts";

const metaSchemaErrors = (schema: object) => {
  const ajv = new Ajv2020();
  return ajv.validateSchema(schema) ? [] : ajv.errors;
};

describe("our schemas", () => {
  for (const [name, schema] of Object.entries({
    "_routes.json": routesSchema,
    "_keys.json": keysSchema,
    "_unsigned.json": unsignedSchema,
    "the v0.4 manifest": manifestSchema(),
  })) {
    it(`${name}: valid under the 2020-12 meta-schema`, () => assert.deepEqual(metaSchemaErrors(schema), []));
  }

  it("the check finds a schema the meta-schema refuses", () => {
    const errors = metaSchemaErrors({ type: "object", properties: { a: { type: "strng" } } });
    assert.ok(errors && errors.length > 0);
  });
});
