/**
 * Any resource of spec section 2 by its `$defs` name (`BilateralSession`), validated as the product validates a
 * manifest: its part of the v0.4 schema compiled by ajv (here at run time, as no command validates these resources
 * on their own, so none is generated), its errors worded by core/validate/schema-problems.ts.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { manifestSchema } from "../../core/validate/manifest-schema.ts";
import { problemsOf, type Validate } from "../../core/validate/schema-problems.ts";
import { compilable } from "../../scripts/validate/compilable-schema.ts";
import { CONTEXT } from "./fixture-content.ts";

// ajv-formats is CommonJS with a `default` property; under ESM the callable is either.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
const compiled = new Map<string, Validate>();

/** The validator of the resource `name` (compiled once), for the test content's context. */
export function resourceValidator(name: string): Validate {
  let validate = compiled.get(name);
  if (validate === undefined) {
    const { $schema, $defs } = manifestSchema(CONTEXT);
    if (!Object.hasOwn($defs, name)) throw new Error(`no resource ${JSON.stringify(name)} in the v0.4 schema`);
    const { schema, descriptions } = compilable({ $schema, $defs, $ref: `#/$defs/${name}` });
    validate = problemsOf(ajv.compile(schema), descriptions);
    compiled.set(name, validate);
  }
  return validate;
}
