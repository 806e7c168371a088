/** The rules across fields, each with a passing and a failing case, and where they point. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { crossFieldProblems, MAX_CLAIM_PROOF_BYTES } from "../../core/validate/cross-field.ts";
import { instant } from "../../core/date-time.ts";
import { freshnessProblems } from "../../core/validate/freshness.ts";
import { manifestFor } from "../support/fixture-content.ts";

const m = (extra: Record<string, unknown> = {}) => manifestFor("urn:uuid:x", extra);
const rulesAt = (value: Record<string, unknown>) => crossFieldProblems(value).map((p) => `${p.rule} ${p.pointer}`);
const ceremony = (threshold: string, attesters: string[]) =>
  m({
    claims: [{ "@type": "t", issuer: "i", ceremonyProof: { type: "ThresholdAttestationProof", threshold, attesters } }],
  });

describe("cross-field rules", () => {
  it("accepts a plain manifest", () => assert.deepEqual(rulesAt(m()), []));

  it("issuedAt not after expiresAt, compared as instants", () => {
    assert.deepEqual(rulesAt(m({ issuedAt: "2026-01-01T00:00:00Z", expiresAt: "2026-01-01T00:00:00Z" })), []);
    assert.deepEqual(rulesAt(m({ issuedAt: "2026-01-01T01:00:00+02:00", expiresAt: "2025-12-31T23:30:00Z" })), []);
    assert.deepEqual(rulesAt(m({ issuedAt: "2026-01-02T00:00:00Z", expiresAt: "2026-01-01T00:00:00Z" })), [
      "time/issued-after-expiry /issuedAt",
    ]);
  });

  it("facet and claim tiers only raise the manifest's", () => {
    const tiers = (manifest: number | undefined, facet: number, claim: number) =>
      rulesAt(
        m({
          ...(manifest === undefined ? {} : { requiredTrustTier: manifest }),
          facets: [{ requiredTrustTier: facet }],
          claims: [{ requiredTrustTier: claim }],
        }),
      );
    assert.deepEqual(tiers(undefined, 0, 0), []);
    assert.deepEqual(tiers(1, 1, 3), []);
    assert.deepEqual(tiers(2, 1, 2), ["tier/below-manifest-floor /facets/0/requiredTrustTier"]);
    assert.deepEqual(tiers(2, 2, 0), ["tier/below-manifest-floor /claims/0/requiredTrustTier"]);
  });

  it("an agent delegation is made by the subject", () => {
    const delegation = (delegatedBy: string) =>
      m({
        subject: "did:web:alice",
        pointers: [{ "@type": "um:homepage" }, { "@type": "um:agentDelegation", delegatedBy }],
      });
    assert.deepEqual(rulesAt(delegation("did:web:alice")), []);
    assert.deepEqual(rulesAt(delegation("did:web:mallory")), ["delegation/not-by-subject /pointers/1/delegatedBy"]);
  });

  it("a ceremony's M-of-N threshold fits its attesters", () => {
    assert.deepEqual(rulesAt(ceremony("2-of-3", ["a", "b"])), []);
    assert.deepEqual(rulesAt(ceremony("2-of-3", ["a", "b", "c"])), []);
    assert.deepEqual(rulesAt(ceremony("3-of-3", ["a", "b"])), ["ceremony/threshold /claims/0/ceremonyProof/attesters"]);
    assert.deepEqual(rulesAt(ceremony("2-of-3", ["a", "a"])), ["ceremony/threshold /claims/0/ceremonyProof/attesters"]);
    assert.deepEqual(rulesAt(ceremony("1-of-2", ["a", "b", "c"])), [
      "ceremony/threshold /claims/0/ceremonyProof/attesters",
    ]);
    assert.deepEqual(rulesAt(ceremony("4-of-3", ["a", "b", "c", "d"])), [
      "ceremony/threshold /claims/0/ceremonyProof/threshold",
    ]);
    assert.deepEqual(rulesAt(ceremony("0-of-3", ["a"])), ["ceremony/threshold /claims/0/ceremonyProof/threshold"]);
  });

  it("an embedded claim proof is at most 50 KiB of canonical JSON", () => {
    const proofOf = (bytes: number) => ({
      type: "VerifiablePresentation",
      pad: "x".repeat(bytes - '{"pad":"","type":"VerifiablePresentation"}'.length),
    });
    const claim = (claimProof: unknown) => m({ claims: [{ "@type": "t", issuer: "i", claimProof }] });
    assert.deepEqual(rulesAt(claim(proofOf(MAX_CLAIM_PROOF_BYTES))), []);
    assert.deepEqual(rulesAt(claim(proofOf(MAX_CLAIM_PROOF_BYTES + 1))), [
      "claim/proof-too-large /claims/0/claimProof",
    ]);
    assert.deepEqual(rulesAt(claim([{}, proofOf(MAX_CLAIM_PROOF_BYTES + 1)])), [
      "claim/proof-too-large /claims/0/claimProof/1",
    ]);
    assert.deepEqual(rulesAt(claim("https://proofs.example/big")), [], "a proof by reference has no embedded size");
  });

  it("measures a proof as JCS would write it, whatever its member order, numbers and characters", () => {
    // The rule measures JSON.stringify's text: the same characters as JCS's, reordered.
    const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength;
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: "medium", stringUnit: "grapheme" }), (value) =>
        assert.equal(utf8Length(JSON.stringify(value)), utf8Length(canonicalize(value))),
      ),
      { numRuns: 2000 },
    );
  });

  it("reads only values of the right type, whatever else is wrong", () => {
    assert.deepEqual(
      rulesAt({ facets: "nope", claims: [null, 3], pointers: {}, requiredTrustTier: "2", issuedAt: 5 }),
      [],
    );
  });
});

describe("freshness at an instant", () => {
  const now = new Date("2027-01-01T00:00:00Z");
  const at = (issuedAt: string, expiresAt: string) =>
    freshnessProblems(m({ issuedAt, expiresAt }), now).map((p) => `${p.rule} ${p.pointer}`);
  it("is quiet for a current manifest", () => assert.deepEqual(at("2026-01-01T00:00:00Z", "2028-01-01T00:00:00Z"), []));
  it("flags an expired one: past expiresAt, not at it (core §3.1.2: now > expiresAt)", () => {
    assert.deepEqual(at("2026-01-01T00:00:00Z", "2026-12-31T23:59:59.999Z"), ["time/expired /expiresAt"]);
    assert.deepEqual(at("2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"), []);
  });
  it("flags one issued in the future, beyond a minute of clock skew", () => {
    assert.deepEqual(at("2027-01-01T00:00:59Z", "2028-01-01T00:00:00Z"), []);
    assert.deepEqual(at("2027-01-01T00:01:01Z", "2028-01-01T00:00:00Z"), ["time/not-yet-issued /issuedAt"]);
  });
});

describe("impossible dates, which Date.parse reads as other dates", () => {
  it("are compared by no rule (the schema reports them, once)", () => {
    assert.deepEqual(rulesAt(m({ issuedAt: "2026-02-30T00:00:00Z", expiresAt: "2026-03-01T00:00:00Z" })), []);
    assert.deepEqual(rulesAt(m({ issuedAt: "2026-03-01T00:00:00Z", expiresAt: "2026-02-29T00:00:00Z" })), []);
    assert.deepEqual(rulesAt(m({ issuedAt: "2028-03-01T00:00:00Z", expiresAt: "2028-02-29T00:00:00Z" })), [
      "time/issued-after-expiry /issuedAt",
    ]);
  });
  it("do not make a future expiry a warning that it names no instant", () => {
    assert.deepEqual(freshnessProblems(m({ expiresAt: "2031-02-30T00:00:00Z" }), new Date("2027-01-01T00:00:00Z")), []);
  });
});

describe("leap seconds, which the schema's date-time allows and Date.parse does not read", () => {
  it("are the instant after 23:59:59", () => {
    assert.equal(instant("2016-12-31T23:59:60Z"), Date.parse("2017-01-01T00:00:00Z"));
    assert.equal(instant("2016-12-31T23:59:60.5+00:00"), Date.parse("2017-01-01T00:00:00.5Z"));
    assert.equal(instant("2016-12-31 23:59:60z"), Date.parse("2017-01-01T00:00:00Z"));
  });
  it("do not make an expired manifest current", () => {
    const problems = freshnessProblems(
      m({ issuedAt: "2016-01-01T00:00:00Z", expiresAt: "2016-12-31T23:59:60Z" }),
      new Date("2027-01-01T00:00:00Z"),
    );
    assert.deepEqual(
      problems.map((p) => p.rule),
      ["time/expired"],
    );
  });
  it("an expiry that names no instant is treated as past", () => {
    assert.deepEqual(
      freshnessProblems(m({ expiresAt: "soon" }), new Date("2027-01-01T00:00:00Z")).map((p) => p.rule),
      ["time/expired"],
    );
  });
});
