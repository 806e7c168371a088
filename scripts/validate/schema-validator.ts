/**
 * The compiled schemas, and ajv's errors turned into problems a publisher can act on:
 * one per fault, with the JSON pointer of the value at fault.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { escapePointerToken } from "../../core/json/strict-json.ts";
import { manifestSchema, SCHEMA_ID } from "../../core/validate/manifest-schema.ts";
import type { Problem } from "../../core/validate/problem.ts";
import { redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { keysSchema } from "./keys-schema.ts";
import { routesSchema } from "./routes-schema.ts";
import { unsignedSchema } from "./unsigned-schema.ts";

// ajv-formats is CommonJS with a `default` property; under ESM the callable is either.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule);

export type Validate = (value: unknown) => Problem[];

export interface SchemaValidators {
  manifest: Validate;
  routes: Validate;
  keys: Validate;
  unsigned: Validate;
  /** Any resource of spec section 2 by its `$defs` name, e.g. `BilateralSession`. */
  resource(name: string): Validate;
}

const compiled = new Map<string, SchemaValidators>();

/** Validators for a context URL, compiled once per process. */
export function schemaValidators(contextUrl: string): SchemaValidators {
  let validators = compiled.get(contextUrl);
  if (validators === undefined) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    ajv.addKeyword({
      keyword: "redirect-location",
      type: "string",
      schemaType: "boolean",
      errors: true,
      validate: function redirectLocation(this: unknown, _schema: boolean, data: string): boolean {
        const problem = redirectLocationProblem(data);
        (redirectLocation as { errors?: Partial<ErrorObject>[] }).errors = problem === undefined ? [] : [{ keyword: "redirect-location", message: problem, params: {} }];
        return problem === undefined;
      },
    });
    ajv.addSchema(manifestSchema(contextUrl));
    validators = {
      manifest: problemsOf(ajv.getSchema(SCHEMA_ID)!),
      routes: problemsOf(ajv.compile(routesSchema)),
      keys: problemsOf(ajv.compile(keysSchema)),
      unsigned: problemsOf(ajv.compile(unsignedSchema)),
      resource: (name) => {
        const validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${name}`);
        if (validate === undefined) throw new Error(`no resource ${JSON.stringify(name)} in the v0.4 schema`);
        return problemsOf(validate);
      },
    };
    compiled.set(contextUrl, validators);
  }
  return validators;
}

export function problemsOf(validate: ValidateFunction): Validate {
  return (value) => (validate(value) ? [] : toProblems(validate.errors ?? []));
}

function toProblems(errors: ErrorObject[]): Problem[] {
  // A failed anyOf is reported once, in its own words, not once per branch that failed.
  const anyOfs = errors.filter((e) => e.keyword === "anyOf");
  const insideAnyOf = (e: ErrorObject) =>
    anyOfs.some((a) => a !== e && e.schemaPath.startsWith(a.schemaPath + "/") && e.instancePath.startsWith(a.instancePath));
  return errors
    .filter((e) => e.keyword !== "if" && !insideAnyOf(e))
    .map((e) => ({ pointer: pointerOf(e), rule: `schema/${e.keyword}`, message: messageOf(e) }));
}

function pointerOf(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return `${e.instancePath}/${escapePointerToken(e.params.additionalProperty as string)}`;
  return e.instancePath;
}

function messageOf(e: ErrorObject): string {
  const description = (e.parentSchema as { description?: string } | undefined)?.description;
  switch (e.keyword) {
    case "required":
      return `missing required member ${JSON.stringify(e.params.missingProperty)}`;
    case "additionalProperties":
      return `unknown member ${JSON.stringify(e.params.additionalProperty)}: this object allows no other members`;
    case "const":
      return `must be ${JSON.stringify(e.params.allowedValue)}, found ${JSON.stringify(e.data)}`;
    case "enum":
      return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, found ${JSON.stringify(e.data)}`;
    case "anyOf":
      return description ?? "must match one of the allowed shapes";
    case "format":
    case "pattern":
      return `${description ?? `must be a valid ${e.params.format ?? `string matching ${e.params.pattern}`}`}, found ${JSON.stringify(e.data)}`;
    default:
      return e.message ?? e.keyword;
  }
}
