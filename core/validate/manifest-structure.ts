/**
 * The structural verdict on one parsed manifest: what is wrong with it on its own, read
 * without a clock and before its signature. For v0.4, the schema of spec section 2 (run
 * as the code generated from core/validate/manifest-schema.ts), the `@context` namespace
 * of the configured standards site (section 2.1: not in the generated code, as the site
 * is a setting) and the cross-field rules; for an earlier version, its own version's
 * rules (legacy.ts). `check` and the evaluator's Arrive stage both call this: one
 * structural truth.
 */
import { isJsonObject } from "../json/strict-json.ts";
import { crossFieldProblems } from "./cross-field.ts";
import { manifestV04, manifestV04Descriptions } from "./generated/manifest-v0.4.js";
import { legacyVersionOf, type LegacyChecks } from "./legacy.ts";
import { isOrContains } from "./manifest-schema.ts";
import type { Problem } from "./problem.ts";
import { problemsOf } from "./schema-problems.ts";
import { quoted } from "../excerpt.ts";

const schemaV04 = problemsOf(manifestV04, manifestV04Descriptions);

/** The v0.4 schema's problems, the namespace `contextUrl` included. */
export function manifestSchemaProblems(value: unknown, contextUrl: string): Problem[] {
  const problems = schemaV04(value);
  if (isJsonObject(value) && Object.hasOwn(value, "@context")) {
    const context = value["@context"];
    if (
      context !== contextUrl &&
      !(Array.isArray(context) && context.every((c) => typeof c === "string") && context.includes(contextUrl))
    ) {
      // The rule keeps the name the schema gave it before the namespace became a setting:
      // `check --json` consumers match on it.
      problems.unshift({ pointer: "/@context", rule: "schema/anyOf", message: isOrContains(contextUrl).description });
    }
  }
  return problems;
}

/**
 * Everything structurally wrong with a manifest: of v0.4, or of an earlier version whose
 * check `legacy` holds (the build reads v0.1–v0.3; the evaluator, v0.3).
 */
export function structureProblems(value: unknown, standardsUrl: string, legacy: LegacyChecks): Problem[] {
  const legacyVersion = legacyVersionOf(value);
  const legacyCheck = legacyVersion === undefined ? undefined : legacy[legacyVersion];
  if (legacyVersion !== undefined && legacyCheck === undefined) {
    return [
      {
        pointer: "/manifestVersion",
        rule: "version/unsupported",
        message: `manifestVersion ${quoted(legacyVersion)} is not read here`,
      },
    ];
  }
  if (legacyCheck !== undefined) return listed(legacyCheck(value as Record<string, unknown>, standardsUrl));
  const problems = manifestSchemaProblems(value, `${standardsUrl}/ns/v0.4`);
  if (isJsonObject(value)) problems.push(...crossFieldProblems(value));
  return listed(problems);
}

/**
 * The most structural problems listed for one manifest. A thousand faults, each quoting an
 * excerpt, would still be half a megabyte in every report of the file (check's, its JSON,
 * a receipt); the first ones say what is wrong, and fixing them is the way to the rest.
 */
const MAX_LISTED_PROBLEMS = 50;

/** `problems`, the first MAX_LISTED_PROBLEMS of them and one saying how many more there are. */
function listed(problems: Problem[]): Problem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return [
    ...problems.slice(0, MAX_LISTED_PROBLEMS),
    {
      pointer: "",
      rule: "limits/problems",
      message: `${more} more structural problem${more === 1 ? "" : "s"} not listed: fix those listed, and check again`,
    },
  ];
}
