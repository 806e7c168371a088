/**
 * The lookup page's verdict, checklist and summary (lookup-page/verdict.ts, checklist.ts,
 * summary.ts, words.ts) for each receipt the Chromium tests reach and those they do not:
 * the same six checks in the same order for every outcome, the cause of a rejection first,
 * the outcome always the receipt's, a status with its date and reason, no registry code or
 * millisecond in what a person reads (issue 40, defects 1, 2, 4, 6 and 10).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Receipt, Warning } from "../../core/evaluate/index.ts";
import { CHECK_ORDER, type Check, checklist, type LookupFacts } from "../../lookup-page/checklist.ts";
import { summary } from "../../lookup-page/summary.ts";
import { receiptVerdict, unresolvedVerdict } from "../../lookup-page/verdict.ts";
import { instantWords, plain, shortened } from "../../lookup-page/words.ts";

const UMID = "urn:uuid:47000027-0000-4000-8000-000000000027";

const accepted: Receipt = {
  "@type": ["um:Receipt"],
  receiptId: "urn:um:receipt:sha256:not-this-receipts-own",
  manifestId: UMID,
  outcome: "accepted",
  signatureCheck: "valid",
  freshnessCheck: "fresh",
  keyRefResolution: "resolved",
  keyRefResolvedBy: "https://signer.example/.well-known/did.json",
  revocationStatus: "active",
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

const manifest = {
  "@id": UMID,
  subject: "did:web:signer.example",
  issuedAt: "2026-11-01T09:00:00.123Z",
  expiresAt: "2031-01-01T00:00:00Z",
  signature: { keyRef: "did:web:signer.example#key-1" },
};

const tierWarning: Warning = {
  code: "um:reason:trust:tier-unsupported",
  message:
    "the manifest requires Tier 1; this evaluator verified Tier 0 (it supports up to Tier 0), and does not downgrade",
  pointer: "/requiredTrustTier",
};
const purposeWarning: Warning = {
  code: "um:reason:consent:purpose-unverified",
  message: 'the consent "urn:um:consent:c" is for the purpose "display"; no intended purpose was given, so whether…',
  pointer: "/consents/0/purpose",
};

/** Each check's id and result, in the order shown. */
const results = (checks: Check[]) => checks.map((c) => `${c.id}:${c.result}`);
const resultOf = (checks: Check[], id: Check["id"]) => checks.find((c) => c.id === id)!;

function look(receipt: Receipt, facts: Partial<LookupFacts> = {}) {
  const checks = checklist({ receipt, manifest, logProof: "none", ...facts });
  return { checks, verdict: receiptVerdict(receipt, checks) };
}

describe("the lookup page's checklist and verdict", () => {
  it("a manifest refused only for its tier says its signature and key held, and the tier first", () => {
    const receipt: Receipt = { ...accepted, outcome: "rejected", warnings: [purposeWarning, tierWarning] };
    const { checks, verdict } = look(receipt, { manifest: { ...manifest, requiredTrustTier: 1 } });
    assert.deepEqual(results(checks), [
      "signature:pass",
      "key:pass",
      "fresh:pass",
      "status:pass",
      "logged:skip",
      "tier:fail",
    ]);
    assert.equal(verdict.outcome, "rejected");
    assert.equal(verdict.tone, "bad");
    assert.match(verdict.reasons[0]!, /^Trust tier: it needs Tier 1; this page checks Tier 0$/);
    assert.match(verdict.reasons[1]!, /purpose "display"/);
    assert.deepEqual(verdict.codes, [purposeWarning.code, tierWarning.code]);
  });

  it("lists the same six checks in the same order for every outcome, and none without a receipt", () => {
    const outcomes: Receipt[] = [
      accepted,
      { ...accepted, outcome: "accepted-with-warnings", warnings: [purposeWarning] },
      { ...accepted, outcome: "rejected", signatureCheck: "invalid" },
    ];
    for (const receipt of outcomes)
      assert.deepEqual(
        look(receipt).checks.map((c) => c.id),
        CHECK_ORDER,
      );
    const none = checklist({ logProof: "key", noReceipt: "the resolver answered 404" });
    assert.deepEqual(
      results(none),
      CHECK_ORDER.map((id) => `${id}:skip`),
    );
    assert.equal(none[0]!.sentence, "the resolver answered 404");
  });

  it("the verdict's outcome is the receipt's, a suspension with its date and reason", () => {
    const receipt: Receipt = {
      ...accepted,
      outcome: "accepted-with-warnings",
      revocationStatus: "suspended",
      warnings: [{ code: "um:reason:status:suspended", message: "um:reason:status:suspended: suspended" }],
    };
    const status = {
      value: "suspended" as const,
      url: "https://r.example/s",
      since: "2026-11-23T13:43:19.662Z",
      reason: "under review",
    };
    const { checks, verdict } = look(receipt, { status });
    assert.equal(verdict.outcome, receipt.outcome);
    const check = resultOf(checks, "status");
    assert.equal(check.result, "warn");
    assert.equal(check.sentence, "its publisher suspended it on 2026-11-23 13:43 UTC: under review");
    assert.equal(
      summary(UMID, receipt, manifest, status).at(-1)!.value,
      "suspended since 2026-11-23 13:43 UTC: under review",
    );
  });

  it("a revocation (410, no manifest) fails the status with its date and reason, and checks nothing else", () => {
    const receipt: Receipt = {
      ...accepted,
      outcome: "rejected",
      signatureCheck: "not-evaluated",
      freshnessCheck: "not-evaluated",
      keyRefResolution: "not-evaluated",
      revocationStatus: "revoked",
    };
    const status = {
      value: "revoked" as const,
      url: "https://r.example/s",
      since: "2026-10-15T08:30:00Z",
      reason: "key lost",
    };
    const { checks, verdict } = look(receipt, { manifest: undefined, status, logProof: "key" });
    assert.deepEqual(results(checks), [
      "signature:skip",
      "key:skip",
      "fresh:skip",
      "status:fail",
      "logged:pass",
      "tier:skip",
    ]);
    assert.equal(verdict.reasons[0], "Status: its publisher revoked it on 2026-10-15 08:30 UTC: key lost");
  });

  it("a forged signature, an expired manifest and a log that refuses each fail their own check, first", () => {
    const forged = look({
      ...accepted,
      outcome: "rejected",
      signatureCheck: "invalid",
      keyRefResolution: "unresolved",
    });
    assert.equal(resultOf(forged.checks, "signature").result, "fail");
    assert.match(forged.verdict.reasons[0]!, /^Signature: /);
    const expired = look({ ...accepted, outcome: "rejected", freshnessCheck: "expired" });
    assert.equal(resultOf(expired.checks, "fresh").result, "fail");
    assert.match(expired.verdict.reasons[0]!, /^Fresh: it expired 2031-01-01 00:00 UTC$/);
    const refused: Warning = { code: "um:reason:log:not-latest", message: "um:reason:log:not-latest: an older body" };
    const rolledBack = look(
      { ...accepted, outcome: "rejected", signatureCheck: "not-evaluated", warnings: [refused] },
      { logProof: "key" },
    );
    assert.equal(resultOf(rolledBack.checks, "logged").result, "fail");
    // Refused before its signature was checked: weighed at no tier.
    assert.equal(resultOf(rolledBack.checks, "tier").result, "skip");
    assert.equal(rolledBack.verdict.reasons[0], "Logged: an older body");
    assert.equal(resultOf(look(accepted, { logProof: "key" }).checks, "logged").result, "pass");
  });

  it("a log policy's quorum met passes, witnessed by N of M; a key alone passes, saying no witness was asked", () => {
    const witnessed = look(accepted, { logProof: "policy", logWitnesses: { cosigned: 2, of: 3 } });
    const logged = resultOf(witnessed.checks, "logged");
    assert.deepEqual([logged.result, logged.finding], ["pass", "witnessed by 2 of 3"]);
    assert.deepEqual(witnessed.verdict.reasons, ["every check passed, and nothing in it was withheld"]);
    const keyOnly = look(accepted, { logProof: "key" });
    const unwitnessed = resultOf(keyOnly.checks, "logged");
    // Not a warning: an accepted lookup under the key alone reads accepted, its one caveat in the check's sentence.
    assert.equal(unwitnessed.result, "pass");
    assert.match(unwitnessed.sentence, /no witness was asked/);
    assert.deepEqual(keyOnly.verdict.reasons, ["every check passed, and nothing in it was withheld"]);
    // A policy of `quorum none` asks no witness either.
    const noQuorum = look(accepted, { logProof: "policy", logWitnesses: { cosigned: 0, of: 0 } });
    assert.equal(resultOf(noQuorum.checks, "logged").sentence, unwitnessed.sentence);
  });

  it("too few witnesses fails the log check naming those missing; old cosignatures fail it as too old", () => {
    const rejected = (code: string, message: string): Receipt => ({
      ...accepted,
      outcome: "rejected",
      signatureCheck: "not-evaluated",
      warnings: [{ code, message: `${code}: ${message}` }],
    });
    const short = look(
      rejected("um:reason:log:unwitnessed", "https://r.example/log/checkpoint is cosigned by 1 of the 2 witnesses"),
      { logProof: "policy", logWitnesses: { cosigned: 1, of: 2, missing: ["beta.example"] } },
    );
    const missing = resultOf(short.checks, "logged");
    assert.equal(missing.result, "fail");
    assert.match(missing.sentence, /witnessed by 1 of 2\b.*no cosignature from beta\.example\b/);
    assert.equal(short.verdict.reasons[0], `Logged: ${missing.sentence}`);
    const old = look(rejected("um:reason:log:stale-cosignature", "cosigned too long ago"), {
      logProof: "policy",
      logWitnesses: { cosigned: 1, of: 2, missing: ["beta.example"] },
    });
    const stale = resultOf(old.checks, "logged");
    assert.deepEqual([stale.result, stale.finding], ["fail", "witnessed too long ago"]);
    assert.match(stale.sentence, /too old/);
    assert.notEqual(stale.sentence, missing.sentence);
    for (const { verdict } of [short, old]) {
      assert.ok(!verdict.reasons.some((reason) => reason.includes("um:reason:")), verdict.reasons.join(" / "));
      assert.equal(verdict.codes.length, 1);
    }
  });

  it("a key its DID does not list fails; one not looked up is a warning", () => {
    const mismatch = look({
      ...accepted,
      outcome: "rejected",
      keyRefResolution: "unresolved",
      keyRefResolutionReason: "um:reason:key:method-not-found",
    });
    assert.equal(resultOf(mismatch.checks, "key").result, "fail");
    const offline = look({
      ...accepted,
      keyRefResolution: "unresolved",
      keyRefResolutionReason: "um:reason:key:offline",
    });
    assert.equal(resultOf(offline.checks, "key").result, "warn");
  });

  it("a partial manifest says first what is withheld, once", () => {
    const receipt: Receipt = {
      ...accepted,
      outcome: "accepted-partial",
      claimStatuses: [
        {
          claimRef: "urn:um:claim:over-18",
          status: "trustTierUnsupported",
          tier: 0,
          reason: "um:reason:trust:tier-unsupported: requires Tier 1",
        },
      ],
    };
    const { checks, verdict } = look(receipt);
    assert.equal(resultOf(checks, "tier").result, "warn");
    assert.deepEqual(verdict.reasons, ["the claim urn:um:claim:over-18 is not verified: requires Tier 1"]);
  });

  it("an accepted manifest says every check passed; no reason holds a registry code", () => {
    assert.deepEqual(look(accepted).verdict.reasons, ["every check passed, and nothing in it was withheld"]);
    const receipt: Receipt = { ...accepted, outcome: "accepted-with-warnings", warnings: [purposeWarning] };
    for (const reason of look(receipt).verdict.reasons) assert.doesNotMatch(reason, /um:reason:/);
  });

  it("a lookup with no receipt has its own outcome and tone", () => {
    const moved = unresolvedVerdict("gone elsewhere", "unresolved", true);
    assert.deepEqual([moved.outcome, moved.tone], ["unresolved", "redirect"]);
    assert.deepEqual(
      (["not-found", "unresolved", "cancelled"] as const).map((o) => unresolvedVerdict("why", o).tone),
      ["bad", "bad", "none"],
    );
  });
});

describe("the lookup page's words", () => {
  it("drop a leading registry code or JSON pointer, and milliseconds", () => {
    assert.equal(plain("/signature/value: the signature does not verify"), "the signature does not verify");
    assert.equal(
      plain("um:reason:time:expired: expired at 2026-02-01T00:00:00.517Z"),
      "expired at 2026-02-01T00:00:00Z",
    );
    assert.equal(instantWords("2026-11-23T13:43:19.662Z"), "2026-11-23 13:43 UTC");
    assert.equal(instantWords("not a time"), "not a time");
  });

  it("shorten a UMID of any length to its head and tail", () => {
    const long = `urn:uuid:${"a".repeat(3000)}z`;
    const short = shortened(long, 72);
    assert.equal(short.length, 72);
    assert.ok(short.startsWith("urn:uuid:aaa") && short.endsWith("az"));
    assert.equal(shortened(UMID, 72), UMID);
  });

  it("the summary card gives the subject, signer, dates and status, the UMID shortened", () => {
    const rows = summary(`urn:uuid:${"b".repeat(3000)}`, accepted, manifest, undefined);
    assert.deepEqual(
      rows.map((r) => r.field),
      ["umid", "subject", "signer", "issued", "expires", "status"],
    );
    assert.ok(rows[0]!.value.length <= 72);
    assert.deepEqual(
      rows.slice(1).map((r) => r.value),
      ["did:web:signer.example", "did:web:signer.example", "2026-11-01 09:00 UTC", "2031-01-01 00:00 UTC", "active"],
    );
  });
});
