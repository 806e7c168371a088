/**
 * Stage 5, Compose (core §3.1.5, §6.4.5): the outcome. Rejected when a mandatory check
 * failed, when the manifest-level trust floor is above the tier verified, or when facets
 * were presented and a floor withheld them with none left to process; accepted-partial
 * when an item was withheld or unsupported (a facet not processed, a claim whose tier is
 * unsupported or that failed); accepted-with-warnings when a non-critical condition was
 * noted; otherwise accepted.
 */
import { warn, type Evaluation } from "./evaluation.ts";
import type { Outcome } from "./receipt.ts";

export function compose(ev: Evaluation): Outcome {
  const { receipt, manifest } = ev;
  const floor = typeof manifest.requiredTrustTier === "number" ? manifest.requiredTrustTier : 0;
  if (!ev.rejected && floor > receipt.effectiveTrustTier) {
    warn(ev, true, {
      code: "um:reason:trust:tier-unsupported",
      message:
        `the manifest requires Tier ${floor}; this evaluator verified Tier ` +
        `${receipt.effectiveTrustTier} (it supports up to Tier ` +
        `${ev.context.maxSupportedTrustTier}), and does not downgrade`,
      pointer: "/requiredTrustTier",
    });
  }
  // A facet not projected was not for this evaluation to process (core §3.1.3): it makes no outcome partial.
  const facets = receipt.facetStatuses.filter((f) => f.status !== "not-projected");
  const withheldByFloor = facets.some(
    (f) => f.status === "trustTierUnsupported" || f.status === "assuranceInsufficient",
  );
  if (!ev.rejected && withheldByFloor && !facets.some((f) => f.status === "processed")) {
    warn(ev, true, {
      code: "um:reason:trust:no-processable-facet",
      message:
        "every facet is withheld, at least one by a floor this evaluation cannot meet: nothing processable remains",
    });
  }
  if (ev.rejected) return "rejected";
  if (
    facets.some((f) => f.status !== "processed") ||
    receipt.claimStatuses.some((c) => c.status === "trustTierUnsupported" || c.status === "failed")
  )
    return "accepted-partial";
  return receipt.warnings.length > 0 ? "accepted-with-warnings" : "accepted";
}
