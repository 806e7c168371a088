/**
 * Payloads of earlier manifest versions (spec 4.3: "the stored payload may carry an older
 * `manifestVersion`"), each validated by its own version's rules, not waved through: the
 * published schema of that version (`scripts/validate/legacy/v0.X.schema.json`, copied
 * verbatim from the Universal Manifest repository, Apache-2.0; a test compares them with
 * the published files; compiled ahead of time into `generated/`), and the rules those schemas state only in prose or
 * the version's suite checks:
 * `@type` includes `um:Manifest`, `issuedAt` is not after `expiresAt`, `shards` is an
 * array of `um:Shard` objects, and a v0.3 `@context` references the v0.3 namespace.
 *
 * Signatures: v0.2 introduced Signature Profile A and v0.3 requires it (their schemas
 * require `signature`); v0.1's signature format was never fixed, and the v0.4 spec says
 * it "MUST NOT be relied upon for tamper protection", so a v0.1 payload is never verified.
 */
import { quoted } from "../excerpt.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { issuedBeforeExpiry } from "./cross-field.ts";
import type { Problem } from "./problem.ts";
import type { Validate } from "./schema-problems.ts";

const LEGACY_VERSIONS = ["0.1", "0.2", "0.3"] as const;
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];

/**
 * The check of each legacy version a caller reads (`legacyCheck`: the version's published
 * schema, compiled ahead of time in generated/legacy-v0.X.js, and its rules), given a
 * payload and the standards site. Passed in, not imported here, so that code which reads
 * only v0.3 (the evaluator) does not carry the others, and loads even that one only for a
 * v0.3 payload (legacy-v03.ts).
 */
export type LegacyChecks = Partial<
  Record<LegacyVersion, (manifest: Record<string, unknown>, standardsUrl: string) => Problem[]>
>;

/** The check of `version`, whose published schema `schema` is. */
export function legacyCheck(version: LegacyVersion, schema: Validate): NonNullable<LegacyChecks[LegacyVersion]> {
  return (manifest, standardsUrl) => legacyProblems(version, manifest, standardsUrl, schema);
}

/** Versions whose payloads carry a signature this resolver can verify (Profile A). */
export const SIGNED_LEGACY_VERSIONS: ReadonlySet<string> = new Set(["0.2", "0.3"]);

export function legacyVersionOf(value: unknown): LegacyVersion | undefined {
  const version = isJsonObject(value) ? value.manifestVersion : undefined;
  return LEGACY_VERSIONS.includes(version as LegacyVersion) ? (version as LegacyVersion) : undefined;
}

/**
 * Everything a legacy payload's version says is wrong with it, `schema` being that
 * version's. `standardsUrl` is the configured standards site, whose `/ns/v0.3` a v0.3
 * context must reference.
 */
function legacyProblems(
  version: LegacyVersion,
  manifest: Record<string, unknown>,
  standardsUrl: string,
  schema: Validate,
): Problem[] {
  const problems = [...schema(manifest), ...issuedBeforeExpiry(manifest), ...typeIncludes(manifest, "", "um:Manifest")];
  if (Object.hasOwn(manifest, "shards")) problems.push(...shardProblems(manifest.shards));
  if (version === "0.3") problems.push(...contextProblems(manifest["@context"], `${standardsUrl}/ns/v0.3`));
  return problems;
}

function typeIncludes(object: Record<string, unknown>, at: string, type: string): Problem[] {
  const value = object["@type"];
  if (value === type || (Array.isArray(value) && value.includes(type))) return [];
  return [
    {
      pointer: `${at}/@type`,
      rule: "legacy/type",
      message:
        `@type must be or include ${JSON.stringify(type)}, found ` +
        `${value === undefined ? "nothing" : quoted(value)}`,
    },
  ];
}

function shardProblems(shards: unknown): Problem[] {
  if (!Array.isArray(shards))
    return [{ pointer: "/shards", rule: "legacy/shards", message: `shards must be an array, found ${quoted(shards)}` }];
  return shards.flatMap((shard, i) =>
    isJsonObject(shard)
      ? typeIncludes(shard, `/shards/${i}`, "um:Shard")
      : [{ pointer: `/shards/${i}`, rule: "legacy/shards", message: "a shard must be an object" }],
  );
}

function contextProblems(context: unknown, namespace: string): Problem[] {
  if (context === namespace || (Array.isArray(context) && context.includes(namespace))) return [];
  return [
    {
      pointer: "/@context",
      rule: "legacy/context",
      message: `a v0.3 @context must be or include ${JSON.stringify(namespace)}`,
    },
  ];
}
