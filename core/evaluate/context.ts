/**
 * The evaluation context: what the relying party knows and intends, in the members of the
 * v0.4 suite's `evaluationContext` (SUITE-README "evaluationContext"). Every member is
 * optional, and a missing one takes the spec's fail-closed default: the clock is the
 * context's `now` when given (never the wall clock then), no trust tier above 0, no
 * challenge issued (a non-interactive presentation), the lowest assurance class, the
 * one operation every evaluation performs, `read`, no purpose stated (never a silent pass:
 * consent.ts), and every facet projected.
 */
import { quoted } from "../excerpt.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { isDateTime } from "../date-time.ts";

export const ASSURANCE_CLASSES = ["software", "hardware-uv", "hardware-bound"] as const;
export type AssuranceClass = (typeof ASSURANCE_CLASSES)[number];

export interface EvaluationContext {
  /** RFC 3339 date-time: the instant of every freshness, expiry and liveness comparison. Default: the wall clock. */
  now?: string;
  /** The highest trust tier this evaluator can verify, 0–3 (core §6.4.5). Default 0. */
  maxSupportedTrustTier?: number;
  /** The nonce this verifier issued; the manifest must then carry a `presentationProof` for it (EXT-T1 §T1.2). */
  verifierChallenge?: string;
  /** This verifier's identifier, which the proof's `audience` must equal. */
  verifierAudience?: string;
  /**
   * The assurance class the unlock gesture reached, as this evaluator determined it (EXT-T1 §T1.3.3). Default
   * "software".
   */
  presentedAssuranceClass?: AssuranceClass;
  /**
   * The operations the evaluator intends, each of which a governing consent's `scope` must list literally (core
   * §3.1.4). Default ["read"].
   */
  intendedScope?: string[];
  /**
   * The intended use, which must equal a governing consent's `purpose` (core §1.4.4). Default: not stated, and a
   * consent that holds otherwise is `valid` with the warning `um:reason:consent:purpose-unverified`.
   */
  intendedPurpose?: string;
  /**
   * The facets relevant to this processing context, each by its `name` or `@id` (core §3.1.3): only those are
   * projected, the others recorded as `not-projected`. Default: every facet.
   */
  facets?: string[];
  /**
   * This relying party's policy requires an active status (core §1.6.6): a status that is not `active`,
   * `unchecked` included, rejects. Default false: only `revoked` rejects.
   */
  requireActiveStatus?: boolean;
  /** Leave `processedAt` (and each consent's `checkedAt`) out of the receipt, for byte-comparable output. */
  omitProcessedAt?: boolean;
}

/** A context whose defaults are filled in and whose `now` is a Date. */
export interface ResolvedContext {
  now: Date;
  maxSupportedTrustTier: number;
  verifierChallenge?: string;
  verifierAudience?: string;
  presentedAssuranceClass: AssuranceClass;
  intendedScope: string[];
  intendedPurpose?: string;
  facets?: string[];
  requireActiveStatus: boolean;
  omitProcessedAt: boolean;
}

/** A context that cannot be used: a usage error, named member by member. */
export class ContextError extends Error {}

type Check = (value: unknown) => string | undefined;
const nonEmptyString: Check = (v) => (typeof v === "string" && v !== "" ? undefined : "must be a non-empty string");
const nonEmptyStrings: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string" && s !== "")
    ? undefined
    : "must be a non-empty array of non-empty strings";
const boolean: Check = (v) => (typeof v === "boolean" ? undefined : "must be true or false");
const MEMBERS: Record<keyof EvaluationContext, Check> = {
  now: (v) => (isDateTime(v) ? undefined : "must be an RFC 3339 date-time, such as 2026-06-01T00:00:00Z"),
  maxSupportedTrustTier: (v) =>
    Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3 ? undefined : "must be an integer from 0 to 3",
  verifierChallenge: nonEmptyString,
  verifierAudience: nonEmptyString,
  presentedAssuranceClass: (v) =>
    ASSURANCE_CLASSES.includes(v as AssuranceClass)
      ? undefined
      : `must be one of ${ASSURANCE_CLASSES.map((c) => JSON.stringify(c)).join(", ")}`,
  intendedScope: nonEmptyStrings,
  intendedPurpose: nonEmptyString,
  facets: nonEmptyStrings,
  requireActiveStatus: boolean,
  omitProcessedAt: boolean,
};

/**
 * Checks a context (as parsed from JSON, say) and fills in the defaults; throws
 * ContextError. Only the context's own members are read: a member named as one of
 * Object.prototype's ("__proto__", "constructor") is unknown, and an inherited one is not
 * the caller's to give.
 */
export function resolveContext(context: unknown = {}): ResolvedContext {
  if (!isJsonObject(context)) throw new ContextError("the evaluation context must be a JSON object");
  const faults: string[] = [];
  const c: EvaluationContext = {};
  for (const [name, value] of Object.entries(context)) {
    if (!Object.hasOwn(MEMBERS, name))
      faults.push(`unknown member ${quoted(name)} (known: ${Object.keys(MEMBERS).join(", ")})`);
    else if (value !== undefined) {
      const fault = MEMBERS[name as keyof EvaluationContext](value);
      if (fault !== undefined) faults.push(`${name} ${fault}, not ${quoted(value)}`);
      else Object.assign(c, { [name]: value });
    }
  }
  if (faults.length > 0) throw new ContextError(`evaluation context: ${faults.join("; ")}`);
  return {
    now: c.now === undefined ? new Date() : new Date(c.now),
    maxSupportedTrustTier: c.maxSupportedTrustTier ?? 0,
    ...(c.verifierChallenge !== undefined && { verifierChallenge: c.verifierChallenge }),
    ...(c.verifierAudience !== undefined && { verifierAudience: c.verifierAudience }),
    presentedAssuranceClass: c.presentedAssuranceClass ?? "software",
    intendedScope: c.intendedScope ?? ["read"],
    ...(c.intendedPurpose !== undefined && { intendedPurpose: c.intendedPurpose }),
    ...(c.facets !== undefined && { facets: c.facets }),
    requireActiveStatus: c.requireActiveStatus ?? false,
    omitProcessedAt: c.omitProcessedAt ?? false,
  };
}
