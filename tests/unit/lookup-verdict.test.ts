/**
 * The lookup page's verdict in words (lookup-page/verdict.ts) for each receipt
 * outcome of core §3.3.1, the partial one among them, which the Chromium tests do not
 * reach: a partial receipt names each facet, consent and claim withheld and why; what
 * confirmed the signer's key, or why nothing did, is said; a suspension the resolver lists
 * is a warning.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Receipt } from "../../core/evaluate/index.ts";
import type { StatusDocument } from "../../core/status/status-document.ts";
import { receiptVerdict, unresolvedVerdict } from "../../lookup-page/verdict.ts";

const DID_KEY = "its key is the one its keyRef names: a did:key is its key";

const accepted: Receipt = {
  "@type": ["um:Receipt"],
  receiptId: "urn:um:receipt:sha256:not-this-receipts-own",
  manifestId: "urn:uuid:47000027-0000-4000-8000-000000000027",
  outcome: "accepted",
  signatureCheck: "valid",
  freshnessCheck: "fresh",
  keyRefResolution: "resolved",
  keyRefResolvedBy: "did:key",
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
  assert.deepEqual(receiptVerdict(accepted), {
    tone: "ok",
    headline: "Usable",
    reasons: [
      "the signature verifies, the manifest is within its validity period, and nothing in it was withheld",
      DID_KEY,
    ],
  });
  const suspended = {
    code: "um:reason:status:suspended",
    message: "the manifest is suspended since 2026-03-01T00:00:00Z",
  };
  assert.deepEqual(receiptVerdict({ ...accepted, outcome: "accepted-with-warnings", warnings: [suspended] }), {
    tone: "warn",
    headline: "Usable with warnings",
    reasons: [suspended.message, DID_KEY],
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
      DID_KEY,
    ],
  });
});

test("what confirmed the signer's key is said, or why nothing did (core §1.6.4, step 4)", () => {
  const keySentence = (more: Partial<Receipt>) => receiptVerdict({ ...accepted, ...more }).reasons.slice(1);
  assert.deepEqual(keySentence({ keyRefResolvedBy: "keys" }), ["its key is the one you pinned for its keyRef"]);
  assert.deepEqual(keySentence({ keyRefResolvedBy: "https://alice.example/.well-known/did.json" }), [
    "its key is confirmed by its signer's DID document, https://alice.example/.well-known/did.json",
  ]);
  const { keyRefResolvedBy: _, ...unresolved } = { ...accepted, keyRefResolution: "unresolved" as const };
  assert.deepEqual(keySentence({ ...unresolved, keyRefResolutionReason: "um:reason:key:offline" }), [
    "it verifies with the key the manifest embeds, and its DID document was not fetched: " +
      "nothing says that key is its signer's",
  ]);
  assert.deepEqual(keySentence({ ...unresolved, keyRefResolutionReason: "um:reason:key:unsupported-method" }), [
    "it verifies with the key the manifest embeds, and its keyRef is of a kind this page does not resolve: " +
      "nothing says that key is its signer's",
  ]);
  // A resolution that failed says why in its warning, once.
  const timeout = { code: "um:reason:key:timeout", message: "keyRef not resolved: no answer in time" };
  assert.deepEqual(
    receiptVerdict({
      ...unresolved,
      outcome: "accepted-with-warnings",
      keyRefResolutionReason: timeout.code,
      warnings: [timeout],
    }).reasons,
    [timeout.message],
  );
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
      DID_KEY,
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
    reasons: [because, DID_KEY],
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
