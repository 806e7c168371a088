/**
 * Stage 3, Project (core §3.1.3): the claims, pointers and device entries, each recorded
 * for what the evaluator can do with it. Claims (§1.4.3, §6.4.5; EXT-T1 §T1.1, §T1.4
 * 2d): a claim whose required tier (its own, raised to the manifest's floor) is above
 * what this evaluator verified is `trustTierUnsupported`, never downgraded; its `tier` is
 * the highest this evaluator could verify it at (0 without a holder binding, which only an
 * `identity.crossDidBinding` naming the subject can do without). A Tier-0 claim of a type
 * it does not know is `unprocessable`. Pointers (§1.4.5, §6.5.1): an agent delegation
 * past its `expiresAt` rejects the manifest; one granting no scope, or to no delegate,
 * is honored fail-closed and noted; any other pointer, device or `actorState` is recorded
 * as present and not acted on. Facets (§3.1.3, §3.3.1): those the context names by `name`
 * or `@id`, or every one when it names none, are projected and gated in consent.ts; any
 * other is `not-projected`, as is each facet it names that the manifest does not hold
 * (never evidence of absence), and every facet of a manifest rejected before Project.
 */
import { excerpt, quoted } from "../excerpt.ts";
import { instant } from "../date-time.ts";
import { entries, hasType, warn, type Evaluation } from "./evaluation.ts";
import type { ResolvedContext } from "./context.ts";
import type { ClaimStatus, FacetStatus, Receipt } from "./receipt.ts";

export function project(ev: Evaluation): void {
  projectClaims(ev);
  projectPointers(ev);
  for (const [device, at] of entries(ev.manifest, "devices"))
    ev.receipt.unprocessedEntries.push({ kind: "device", type: typeOf(device), at, ...ref(device) });
  if (Object.hasOwn(ev.manifest, "actorState"))
    ev.receipt.unprocessedEntries.push({ kind: "actorState", type: "", at: "/actorState" });
}

const CROSS_DID = "identity.crossDidBinding";

function projectClaims(ev: Evaluation): void {
  const { manifest, context, receipt } = ev;
  const floor = typeof manifest.requiredTrustTier === "number" ? manifest.requiredTrustTier : 0;
  const unbound: string[] = [];
  const crossDid: Receipt["crossDidBindingStatus"][] = [];
  for (const [claim, at] of entries(manifest, "claims")) {
    const claimRef = typeof claim["@id"] === "string" ? claim["@id"] : at;
    const required = Math.max(floor, typeof claim.requiredTrustTier === "number" ? claim.requiredTrustTier : 0);
    const selfBound =
      hasType(claim, CROSS_DID) && Array.isArray(claim.boundDids) && claim.boundDids.includes(manifest.subject);
    const bound = selfBound || Object.hasOwn(claim, "holderBinding");
    // Tier 0 without a binding (T1.1), and for v0.3 whatever it declares (T1.6.4).
    const tier = ev.version === "0.3" || !bound ? 0 : context.maxSupportedTrustTier;
    if (required > 0 && !bound) unbound.push(claimRef);
    const status = claimStatus(claim, required, tier, context.now.getTime());
    receipt.claimStatuses.push({ claimRef, tier, ...status });
    if (hasType(claim, CROSS_DID)) {
      const proven = Object.hasOwn(claim, "bindingProof") || Object.hasOwn(claim, "ceremonyProof");
      // Tier-2 and Tier-3 proofs have no verification profile here (EXT-T2, EXT-T3).
      crossDid.push(status.status === "trustTierUnsupported" || proven ? "trustTierUnsupported" : "absent");
    }
  }
  receipt.crossDidBindingStatus = crossDid.includes("trustTierUnsupported") ? "trustTierUnsupported" : "absent";
  if (ev.version === "0.3" || unbound.length > 0) {
    const which =
      unbound.length > 0
        ? `Claims ${excerpt(unbound.join(", "))} lack holder binding`
        : "This v0.3 manifest carries no holder binding";
    warn(ev, false, {
      code: "um:reason:trust:unbound-claims",
      message: `${which}: claims are accepted at Tier 0 assurance regardless of declared trust tier (EXT-T1 §T1.6.4).`,
    });
  }
}

function claimStatus(
  claim: Record<string, unknown>,
  required: number,
  tier: number,
  now: number,
): Pick<ClaimStatus, "status" | "reason"> {
  if (required > 0) {
    const why =
      tier < required
        ? `requires Tier ${required}; this evaluator can verify it at Tier ${tier} at most`
        : `requires Tier ${required}; this evaluator implements no Tier-${required} verification`;
    return { status: "trustTierUnsupported", reason: `um:reason:trust:tier-unsupported: ${why}` };
  }
  const expires = instant(claim.expiresAt);
  if (expires !== undefined && expires < now)
    return { status: "failed", reason: `um:reason:claim:expired: expired at ${excerpt(String(claim.expiresAt))}` };
  if (!hasType(claim, CROSS_DID))
    return {
      status: "unprocessable",
      reason: `unrecognized claim type ${quoted(claim["@type"])}: present, not verifiable above Tier 0`,
    };
  return { status: "unverified", reason: "self-asserted at Tier 0: the binding's attester or proof is not verified" };
}

function projectPointers(ev: Evaluation): void {
  const now = ev.context.now.getTime();
  for (const [pointer, at] of entries(ev.manifest, "pointers")) {
    if (!hasType(pointer, "um:agentDelegation")) {
      const expires = instant(pointer.expiresAt);
      ev.receipt.unprocessedEntries.push({
        kind: "pointer",
        type: typeOf(pointer),
        at,
        ...ref(pointer),
        ...(expires !== undefined && expires < now && { reason: "expired" }),
      });
      continue;
    }
    const expires = instant(pointer.expiresAt);
    // An expiry that cannot be read is treated as past: fail closed.
    if (expires === undefined || expires < now) {
      warn(ev, true, {
        code: "um:reason:delegation:expired",
        message:
          `the agent delegation at ${at} expired at ${excerpt(String(pointer.expiresAt))}: ` +
          `an expired grant of authority rejects the manifest (core §6.5.1)`,
        pointer: `${at}/expiresAt`,
      });
    }
    if (!Array.isArray(pointer.scope) || pointer.scope.length === 0) {
      warn(ev, false, {
        code: "um:reason:delegation:empty-scope",
        message: `the agent delegation at ${at} lists no scope: it grants no capabilities`,
        pointer: at,
      });
    }
    if (typeof pointer.delegateId !== "string" || pointer.delegateId === "") {
      warn(ev, false, {
        code: "um:reason:delegation:unattributed",
        message:
          `the agent delegation at ${at} names no delegateId: it is attributed to no agent ` +
          `and grants no authority`,
        pointer: at,
      });
    }
  }
}

function typeOf(entry: Record<string, unknown>): string {
  const type = entry["@type"];
  return typeof type === "string" ? type : Array.isArray(type) ? type.join(" ") : "";
}

function ref(entry: Record<string, unknown>): { ref?: string } {
  return typeof entry["@id"] === "string" ? { ref: entry["@id"] } : {};
}

/** Whether the context projects `facet`: every facet, unless it names some (by `name` or `@id`). */
export function isProjected(context: ResolvedContext, facet: Record<string, unknown>): boolean {
  const named = context.facets;
  return (
    named === undefined ||
    named.includes(String(facet["@id"])) ||
    (typeof facet.name === "string" && named.includes(facet.name))
  );
}

export const NOT_REQUESTED =
  "um:reason:projection:not-requested: not among the facets this processing context names; not read";

/** The status of a facet present and not read, for `reason`. */
export function notProjected(facet: Record<string, unknown>, reason: string): FacetStatus {
  return {
    facetId: String(facet["@id"]),
    ...(typeof facet.name === "string" && { name: facet.name }),
    status: "not-projected",
    reason,
  };
}

/** Each facet the context names that the manifest does not hold, by the name or `@id` it was named by. */
export function absentFacets(ev: Evaluation): FacetStatus[] {
  const facets = entries(ev.manifest, "facets").map(([facet]) => facet);
  return (ev.context.facets ?? [])
    .filter((named) => !facets.some((facet) => facet["@id"] === named || facet.name === named))
    .map((named) => ({
      facetId: named,
      status: "not-projected",
      reason:
        "um:reason:projection:not-presented: the processing context names this facet and the manifest does not " +
        "include it, which is not evidence that it does not exist (core §3.1.3)",
    }));
}

/** Every facet of a manifest rejected before Project (at Verify, or as another UMID's): none is read. */
export function rejectedFacets(ev: Evaluation): FacetStatus[] {
  return entries(ev.manifest, "facets").map(([facet]) =>
    notProjected(facet, "um:reason:projection:manifest-rejected: the manifest was rejected before Project; not read"),
  );
}
