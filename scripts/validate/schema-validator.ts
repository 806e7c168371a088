/**
 * The schemas of the content's other files (`_routes.json`, `_keys.json`, `_unsigned.json`),
 * compiled by ajv at run time: Node-only, as their users are. Manifests themselves are validated by the code generated ahead of time in
 * core/ (manifest-structure.ts), which the evaluator runs too.
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { manifestSchemaProblems } from "../../core/validate/manifest-structure.ts";
import { problemsOf, type Validate } from "../../core/validate/schema-problems.ts";
import { redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { compilable } from "./compilable-schema.ts";
import { keysSchema } from "./keys-schema.ts";
import { routesSchema } from "./routes-schema.ts";
import { unsignedSchema } from "./unsigned-schema.ts";

// ajv-formats is CommonJS with a `default` property; under ESM the callable is either.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export interface SchemaValidators {
  manifest: Validate;
  routes: Validate;
  keys: Validate;
  unsigned: Validate;
}

const compiled = new Map<string, SchemaValidators>();

/**
 * Validators for a context URL and the resolver the content is served from (UM_RESOLVER_URL, "" when none is
 * configured: a redirect's location is judged against it), compiled once per process for each.
 */
export function schemaValidators(contextUrl: string, resolverUrl: string): SchemaValidators {
  const key = JSON.stringify([contextUrl, resolverUrl]);
  let validators = compiled.get(key);
  if (validators === undefined) {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictRequired: false,
      allowUnionTypes: true,
      // Checking a schema against the meta-schema compiles the meta-schema, which costs more than every run's
      // other start-up work together. These schemas are ours: tests/unit/schema-meta.test.ts checks them once.
      validateSchema: false,
    });
    addFormats(ajv);
    ajv.addKeyword({
      keyword: "redirect-location",
      type: "string",
      schemaType: "boolean",
      errors: true,
      validate: function redirectLocation(this: unknown, _schema: boolean, data: string): boolean {
        const problem = redirectLocationProblem(data, resolverUrl);
        (redirectLocation as { errors?: Partial<ErrorObject>[] }).errors =
          problem === undefined ? [] : [{ keyword: "redirect-location", message: problem, params: {} }];
        return problem === undefined;
      },
    });
    const validatorOf = (schema: object): Validate => {
      const { schema: compiledSchema, descriptions } = compilable(schema);
      return problemsOf(ajv.compile(compiledSchema), descriptions);
    };
    validators = {
      manifest: (value) => manifestSchemaProblems(value, contextUrl),
      routes: validatorOf(routesSchema),
      keys: validatorOf(keysSchema),
      unsigned: validatorOf(unsignedSchema),
    };
    compiled.set(key, validators);
  }
  return validators;
}
