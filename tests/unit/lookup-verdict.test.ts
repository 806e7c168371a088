/**
 * The lookup page's verdict in words (scripts/lookup-page/verdict.ts) for each receipt
 * outcome of core §3.3.1, the partial one among them, which the Chromium tests do not
 * reach: a partial receipt names each facet withheld and why.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Receipt } from "../../core/evaluate/index.ts";
import { receiptVerdict, unresolvedVerdict } from "../../scripts/lookup-page/verdict.ts";

const accepted: Receipt = {
  "@type": ["um:Receipt"],
  manifestId: "urn:uuid:47000027-0000-4000-8000-000000000027",
  outcome: "accepted",
  signatureCheck: "valid",
  freshnessCheck: "fresh",
  keyRefResolution: "unresolved",
  revocationStatus: "unchecked",
  holderBindingStatus: "absent",
  presentationProofStatus: "absent",
  livenessStatus: { freshnessClass: "unknown" },
  crossDidBindingStatus: "absent",
  effectiveTrustTier: 0,
  facetStatuses: [{ facetId: "urn:um:facet:profile", name: "profile", status: "processed" }],
  consentStatuses: [],
  claimStatuses: [],
  unprocessedEntries: [],
  warnings: [],
};

test("each outcome has its words and tone, and the warnings say why", () => {
  assert.deepEqual(receiptVerdict(accepted), { tone: "ok", headline: "Usable", reasons: ["the signature verifies, the manifest is within its validity period, and nothing in it was withheld"] });
  const suspended = { code: "um:reason:status:suspended", message: "the manifest is suspended since 2026-03-01T00:00:00Z" };
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "accepted-with-warnings", warnings: [suspended] }), { tone: "warn", headline: "Usable with warnings", reasons: [suspended.message] });
  const expired = { code: "um:reason:time:expired", message: "/expiresAt: expired at 2026-02-01T00:00:00Z: consumers must reject it" };
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "rejected", warnings: [expired] }), { tone: "bad", headline: "Do not use", reasons: [expired.message] });
});

test("a partial receipt names each facet withheld, and not the ones processed", () => {
  const partial: Receipt = {
    ...accepted,
    outcome: "accepted-partial",
    facetStatuses: [
      ...accepted.facetStatuses,
      { facetId: "urn:um:facet:health-summary-v04", name: "healthSummary", status: "consent-denied", reason: "urn:um:consent:health-expired-v04: expired" },
      { facetId: "urn:um:facet:sealed", status: "opaque" },
    ],
  };
  assert.deepEqual(receiptVerdict(partial), {
    tone: "warn",
    headline: "Partly usable",
    reasons: ["facet healthSummary withheld (consent-denied): urn:um:consent:health-expired-v04: expired", "facet urn:um:facet:sealed withheld (opaque)"],
  });
});

test("no manifest: nothing to use, and the client's reason", () => {
  assert.deepEqual(unresolvedVerdict('"urn:x" not found: https://resolver.example/urn%3Ax answered 404'), { tone: "bad", headline: "Nothing to use", reasons: ['"urn:x" not found: https://resolver.example/urn%3Ax answered 404'] });
});
