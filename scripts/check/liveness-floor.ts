/**
 * The publisher's gate is stricter than the evaluator where the published v0.4 schema
 * closes an object and core §3.1.1 opens it: a `requiredLiveness` floor with a member
 * beyond `minFreshness` and `userVerified` passes this resolver's evaluator, which ignores
 * it, but fails every evaluator that validates with the published schema. A warning, so the
 * publisher hears of it before a relying party does.
 */
import { escapePointerToken } from "../../core/json/pointer.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { Problem } from "../../core/validate/problem.ts";
import { quoted } from "../../core/excerpt.ts";

const FLOOR_MEMBERS = new Set(["minFreshness", "userVerified"]);

export function livenessFloorProblems(manifest: Record<string, unknown>): Problem[] {
  const facets = Array.isArray(manifest.facets) ? manifest.facets : [];
  return facets.flatMap((facet, i) => {
    const floor = isJsonObject(facet) ? facet.requiredLiveness : undefined;
    if (!isJsonObject(floor)) return [];
    return Object.keys(floor)
      .filter((name) => !FLOOR_MEMBERS.has(name))
      .map((name) => ({
        pointer: `/facets/${i}/requiredLiveness/${escapePointerToken(name)}`,
        rule: "liveness/unknown-member" as const,
        message:
          `unknown member ${quoted(name)}: the published schema allows only minFreshness and userVerified ` +
          `here, so evaluators that validate with it reject the manifest`,
      }));
  });
}
