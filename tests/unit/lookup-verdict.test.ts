/**
 * The lookup page's verdict in words (scripts/lookup-page/verdict.ts) for each receipt
 * outcome of core §3.3.1, the partial one among them, which the Chromium tests do not
 * reach: a partial receipt names each facet, consent and claim withheld and why; a signature
 * checked only with the embedded key says so; a suspension the resolver lists is a warning.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Receipt } from "../../core/evaluate/index.ts";
import type { StatusDocument } from "../../core/status.ts";
import { receiptVerdict, unresolvedVerdict } from "../../scripts/lookup-page/verdict.ts";

const accepted: Receipt = {
  "@type": ["um:Receipt"],
  receiptId: "urn:um:receipt:sha256:not-this-receipts-own",
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
  assert.deepEqual(receiptVerdict({ ...accepted, keyRefResolution: "resolved" }), {
    tone: "ok",
    headline: "Usable",
    reasons: ["the signature verifies, the manifest is within its validity period, and nothing in it was withheld"],
  });
  const suspended = {
    code: "um:reason:status:suspended",
    message: "the manifest is suspended since 2026-03-01T00:00:00Z",
  };
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "accepted-with-warnings", warnings: [suspended] }), {
    tone: "warn",
    headline: "Usable with warnings",
    reasons: [suspended.message],
  });
  const expired = {
    code: "um:reason:time:expired",
    message: "/expiresAt: expired at 2026-02-01T00:00:00Z: consumers must reject it",
  };
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "rejected", warnings: [expired] }), {
    tone: "bad",
    headline: "Do not use",
    reasons: [expired.message],
  });
});

test("a partial receipt names each facet withheld, and not the ones processed", () => {
  const partial: Receipt = {
    ...accepted,
    outcome: "accepted-partial",
    facetStatuses: [
      ...accepted.facetStatuses,
      {
        facetId: "urn:um:facet:health-summary-v04",
        name: "healthSummary",
        status: "consent-denied",
        reason: "urn:um:consent:health-expired-v04: expired",
      },
      { facetId: "urn:um:facet:sealed", status: "opaque" },
    ],
  };
  assert.deepEqual(receiptVerdict(partial), {
    tone: "warn",
    headline: "Partly usable",
    reasons: [
      "facet healthSummary withheld (consent-denied): urn:um:consent:health-expired-v04: expired",
      "facet urn:um:facet:sealed withheld (opaque)",
    ],
  });
});

test("a signature checked only with the key the manifest embeds says so", () => {
  assert.deepEqual(receiptVerdict(accepted), {
    tone: "ok",
    headline: "Usable",
    reasons: [
      "the signature verifies, the manifest is within its validity period, and nothing in it was withheld",
      "it verifies with the key the manifest embeds: its keyRef was not resolved, so " +
        "nothing says that key is its signer's",
    ],
  });
});

test("a partial receipt whose facets were all processed names each claim and consent withheld", () => {
  const partial: Receipt = {
    ...accepted,
    outcome: "accepted-partial",
    consentStatuses: [
      { facetId: "urn:um:facet:profile", consentRef: "urn:um:consent:ok", status: "valid" },
      {
        facetId: "urn:um:facet:profile",
        consentRef: "urn:um:consent:old",
        status: "expired",
        reason: "expired at 2026-01-01T00:00:00Z",
      },
    ],
    claimStatuses: [
      { claimRef: "urn:um:claim:name", status: "verified", tier: 2 },
      { claimRef: "urn:um:claim:age", status: "trustTierUnsupported", tier: 0, reason: "needs tier 2" },
      { claimRef: "urn:um:claim:degree", status: "failed", tier: 2 },
      { claimRef: "urn:um:claim:blob", status: "unprocessable", tier: 0 },
    ],
  };
  assert.deepEqual(receiptVerdict(partial), {
    tone: "warn",
    headline: "Partly usable",
    reasons: [
      "consent urn:um:consent:old for facet urn:um:facet:profile not valid (expired): expired at 2026-01-01T00:00:00Z",
      "claim urn:um:claim:age not verified (trustTierUnsupported): needs tier 2",
      "claim urn:um:claim:degree not verified (failed)",
      "claim urn:um:claim:blob not verified (unprocessable)",
    ],
  });
});

test("a suspension the resolver lists makes an accepted manifest usable with warnings, and no better", () => {
  const listed: StatusDocument = {
    manifestId: "urn:uuid:47000027-0000-4000-8000-000000000027",
    status: "suspended",
    updatedAt: "2026-02-01T00:00:00Z",
    reason: "under review",
  };
  const because = "the resolver lists it as suspended since 2026-02-01T00:00:00Z: under review";
  assert.deepEqual(receiptVerdict(accepted, listed), {
    tone: "warn",
    headline: "Usable with warnings",
    reasons: [because],
  });
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "rejected" }, listed).headline, "Do not use");
  assert.deepEqual(receiptVerdict(accepted, { ...listed, status: "active" }).headline, "Usable");
});

test("no manifest: nothing to use, and the client's reason", () => {
  assert.deepEqual(unresolvedVerdict('"urn:x" not found: https://resolver.example/urn%3Ax answered 404'), {
    tone: "bad",
    headline: "Nothing to use",
    reasons: ['"urn:x" not found: https://resolver.example/urn%3Ax answered 404'],
  });
});
