/**
 * Stage 4, Consent (core §3.1.4, §1.4.4; EXT-T1 §T1.3.1, §T1.3.3): each projected facet
 * (project.ts: the others are `not-projected`, and their consents not evaluated) passes
 * three gates in order, and the first that fails is its status: sealed (an encrypted
 * facet, for which this evaluator holds no key, is `opaque`), consent (a governing entry
 * in window, not withdrawn, whose `scope` lists every intended operation literally, whose
 * `purpose` is the intended one (or, when none is stated, with a warning that it was not
 * verified: purposeUnverified), and with no condition, since none is
 * enforceable here), then the floors (trust tier, assurance class, liveness), all fail
 * closed. A liveness floor is never met here, as no attestation is validated; the spec
 * names no facet status of its own for it, so it is withheld as `assuranceInsufficient`.
 */
import { excerpt, quoted } from "../excerpt.ts";
import { ASSURANCE_CLASSES } from "./context.ts";
import { entries, warn, type Evaluation } from "./evaluation.ts";
import { instant } from "../date-time.ts";
import { absentFacets, isProjected, NOT_REQUESTED, notProjected } from "./project.ts";
import type { ConsentStatus, FacetStatus } from "./receipt.ts";

export function consent(ev: Evaluation): void {
  const { manifest, receipt, context } = ev;
  const consents = entries(manifest, "consents");
  const facetIds = new Set<unknown>();
  const unprojected = new Set<unknown>();
  for (const [facet] of entries(manifest, "facets")) {
    const facetId = String(facet["@id"]);
    if (!isProjected(context, facet)) {
      unprojected.add(facetId);
      receipt.facetStatuses.push(notProjected(facet, NOT_REQUESTED));
      continue;
    }
    facetIds.add(facetId);
    const governing = consents.filter(([c]) => c.facetRef === facetId);
    const statuses = governing.map(([c, at]) => consentStatus(ev, c, at, facetId));
    receipt.consentStatuses.push(...statuses);
    const status: FacetStatus = {
      facetId,
      ...(typeof facet.name === "string" && { name: facet.name }),
      ...gates(ev, facet, statuses),
    };
    if (typeof facet.requiredAssuranceClass === "string") {
      status.assuranceStatus = {
        assertedClass: context.presentedAssuranceClass,
        met: rank(context.presentedAssuranceClass) >= rank(facet.requiredAssuranceClass),
      };
    }
    receipt.facetStatuses.push(status);
  }
  receipt.facetStatuses.push(...absentFacets(ev));
  for (const [c, at] of consents) {
    if (!facetIds.has(c.facetRef))
      receipt.unprocessedEntries.push({
        kind: "consent",
        type: "um:Consent",
        at,
        ref: String(c["@id"]),
        reason: unprojected.has(c.facetRef)
          ? `its facet ${quoted(c.facetRef)} is not projected`
          : `no facet ${quoted(c.facetRef)} in this manifest`,
      });
  }
}

function gates(
  ev: Evaluation,
  facet: Record<string, unknown>,
  consents: ConsentStatus[],
): Pick<FacetStatus, "status" | "reason"> {
  const { context, manifest } = ev;
  if (Object.hasOwn(facet, "encryptionProfile"))
    return { status: "opaque", reason: "um:reason:crypto:no-decryption-key: a sealed entry, present and not read" };
  if (consents.length === 0) return { status: "consent-missing", reason: "no consent governs this facet" };
  if (!consents.some((c) => c.status === "valid"))
    return {
      status: "consent-denied",
      reason: excerpt(consents.map((c) => `${c.consentRef}: ${c.status}`).join("; ")),
    };

  const tier = Math.max(
    typeof manifest.requiredTrustTier === "number" ? manifest.requiredTrustTier : 0,
    typeof facet.requiredTrustTier === "number" ? facet.requiredTrustTier : 0,
  );
  if (tier > ev.receipt.effectiveTrustTier) {
    return {
      status: "trustTierUnsupported",
      reason:
        `um:reason:trust:tier-unsupported: requires Tier ${tier}; this evaluator ` +
        `verified Tier ${ev.receipt.effectiveTrustTier} (supports up to ` +
        `${context.maxSupportedTrustTier})`,
    };
  }
  if (
    typeof facet.requiredAssuranceClass === "string" &&
    rank(context.presentedAssuranceClass) < rank(facet.requiredAssuranceClass)
  ) {
    return {
      status: "assuranceInsufficient",
      reason:
        `um:reason:trust:assurance-insufficient: requires ` +
        `${facet.requiredAssuranceClass}; the unlock reached ` +
        `${context.presentedAssuranceClass}`,
    };
  }
  if (Object.hasOwn(facet, "requiredLiveness")) {
    return {
      status: "assuranceInsufficient",
      reason: "um:reason:trust:liveness-insufficient: requires a validated liveness attestation; none was validated",
    };
  }
  return { status: "processed" };
}

function consentStatus(ev: Evaluation, c: Record<string, unknown>, at: string, facetId: string): ConsentStatus {
  const { now, intendedScope, intendedPurpose, omitProcessedAt } = ev.context;
  const result: ConsentStatus = { facetId, consentRef: String(c["@id"]), status: "valid" };
  const granted = instant(c.grantedAt);
  const expires = instant(c.expiresAt);
  const scope = Array.isArray(c.scope) ? c.scope : [];
  const missing = intendedScope.filter((operation) => !scope.includes(operation));
  if (Object.hasOwn(c, "withdrawnAt"))
    Object.assign(result, { status: "withdrawn", reason: `withdrawn at ${excerpt(String(c.withdrawnAt))}` });
  else if (expires === undefined || now.getTime() >= expires)
    Object.assign(result, { status: "expired", reason: `expired at ${excerpt(String(c.expiresAt))}` });
  else if (granted === undefined || now.getTime() < granted)
    Object.assign(result, { status: "expired", reason: `not granted until ${excerpt(String(c.grantedAt))}` });
  else if (missing.length > 0)
    Object.assign(result, {
      status: "scope-mismatch",
      reason: `scope does not list ${excerpt(missing.map((m) => JSON.stringify(m)).join(", "))}`,
    });
  else if (intendedPurpose !== undefined && c.purpose !== intendedPurpose)
    Object.assign(result, {
      status: "purpose-mismatch",
      reason: `purpose is ${quoted(c.purpose)}, not ${quoted(intendedPurpose)}`,
    });
  else if (Array.isArray(c.conditions) && c.conditions.length > 0)
    Object.assign(result, {
      status: "condition-violated",
      reason: `this evaluator enforces no condition: ${excerpt(c.conditions.map((x) => JSON.stringify(x)).join(", "))}`,
    });
  else if (intendedPurpose === undefined && typeof c.purpose === "string") purposeUnverified(ev, result, at, c.purpose);
  if (!omitProcessedAt) result.checkedAt = now.toISOString();
  return result;
}

/**
 * A consent that holds but for its purpose, which no intended use was given to compare with (core §3.1.4): `valid`,
 * as the public suite reads a context without a purpose, and never silently so (docs/security.md, "Purpose").
 */
function purposeUnverified(ev: Evaluation, result: ConsentStatus, at: string, purpose: string): void {
  const code = "um:reason:consent:purpose-unverified";
  result.reason = `${code}: no intended use was given to compare with the purpose ${quoted(purpose)}`;
  warn(ev, false, {
    code,
    message:
      `the consent ${quoted(result.consentRef)} is for the purpose ${quoted(purpose)}; no intended purpose was ` +
      `given, so whether this use falls within it is not verified`,
    pointer: `${at}/purpose`,
  });
}

function rank(assuranceClass: unknown): number {
  return ASSURANCE_CLASSES.indexOf(assuranceClass as (typeof ASSURANCE_CLASSES)[number]);
}
