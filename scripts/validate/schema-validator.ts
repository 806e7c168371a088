/**
 * The validators of what `check` and `build` read: the manifests (manifest-structure.ts) and the content's list
 * files (`_routes.json`, `_keys.json`, `_unsigned.json`) and the project's settings (`manifest-resolver.json`), each run as the code generated ahead of time from its
 * schema (tools/generate-validators.ts): no schema is compiled at run time, and no schema compiler is loaded.
 */
import { configFile, configFileDescriptions } from "../../core/validate/generated/config-file.js";
import { keysFile, keysFileDescriptions } from "../../core/validate/generated/keys-file.js";
import { routesFile, routesFileDescriptions } from "../../core/validate/generated/routes-file.js";
import { unsignedFile, unsignedFileDescriptions } from "../../core/validate/generated/unsigned-file.js";
import type { GeneratedValidator, SchemaError } from "../../core/validate/generated/validator.ts";
import { manifestSchemaProblems } from "../../core/validate/manifest-structure.ts";
import { problemsOf, type Validate } from "../../core/validate/schema-problems.ts";
import { redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { valueAtPointer } from "../../core/json/pointer.ts";

export interface SchemaValidators {
  manifest: Validate;
  routes: Validate;
  keys: Validate;
  unsigned: Validate;
}

const keys = problemsOf(keysFile, keysFileDescriptions);
const unsigned = problemsOf(unsignedFile, unsignedFileDescriptions);

/** `manifest-resolver.json`'s validator: it is read before the settings it holds, so it depends on none. */
export const validateConfig = problemsOf(configFile, configFileDescriptions);

/**
 * Validators for a context URL and the resolver the content is served from (UM_RESOLVER_URL, "" when none is
 * configured: a redirect's location is judged against it).
 */
export function schemaValidators(contextUrl: string, resolverUrl: string): SchemaValidators {
  return {
    manifest: (value) => manifestSchemaProblems(value, contextUrl),
    routes: problemsOf(redirectLocationsJudged(routesFile, resolverUrl), routesFileDescriptions),
    keys,
    unsigned,
  };
}

/**
 * `validate` (the routes file's) with its `redirect-location` errors judged: the generated code reports every
 * location it reaches, in ajv's order, since the verdict depends on `resolverUrl`, a setting; here the rule keeps
 * those it refuses, in its own words, and drops the others.
 */
function redirectLocationsJudged(validate: GeneratedValidator, resolverUrl: string): GeneratedValidator {
  const judged: GeneratedValidator = (value) => {
    validate(value);
    const errors = (validate.errors ?? []).flatMap((error): SchemaError[] => {
      if (error.keyword !== "redirect-location") return [error];
      const problem = redirectLocationProblem(valueAtPointer(value, error.instancePath) as string, resolverUrl);
      return problem === undefined ? [] : [{ ...error, message: problem }];
    });
    judged.errors = errors.length === 0 ? null : errors;
    return errors.length === 0;
  };
  return judged;
}
