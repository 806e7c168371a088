/**
 * The evaluator beyond the suite's fixtures, on manifests made at test time with a fresh
 * key: each stage's rules where the suite has no entry (pinned keys, a presentation proof
 * made here and then forged, liveness classes, consent windows and purposes, floors,
 * resource limits), the context's defaults and errors, and `manifest-resolver evaluate`.
 */
import assert from "node:assert/strict";
import { createHash, sign, type KeyObject } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { encodeBase64url } from "../core/base64url.ts";
import { ContextError, type EvaluationContext, type Receipt } from "../core/evaluate/index.ts";
import { offlineEvaluate } from "./support/offline-evaluate.ts";
import { signingInput, signProfileA } from "../scripts/crypto/profile-a.ts";
import { didJwkOf, didKeyRef, rawPublicKey } from "./support/did.ts";
import {
  consentFor,
  facetOf,
  FIXTURE_KEY_REF,
  manifestFor,
  newKey,
  pinning,
  signed,
} from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { assertUsageError, printedProblems } from "./support/problems.ts";

const key = newKey();
const NOW = "2026-06-01T00:00:00Z";
const at = (now: string, more: EvaluationContext = {}): EvaluationContext => ({ now, omitProcessedAt: true, ...more });
const text = (manifest: Record<string, unknown>) => JSON.stringify(manifest);
const run = async (manifest: Record<string, unknown>, context: EvaluationContext = at(NOW), signer: KeyObject = key) =>
  offlineEvaluate(text(signed(manifest, signer)), context);

describe("evaluate(): Verify", () => {
  it("accepts a signed manifest whose one facet has a valid consent", async () => {
    const r = await run(
      manifestFor("urn:eval:ok", {
        facets: [facetOf("urn:f:1", { name: "Profile" })],
        consents: [consentFor("urn:f:1")],
      }),
      { now: NOW, intendedPurpose: "display" },
    );
    assert.equal(r.outcome, "accepted");
    assert.deepEqual(r.facetStatuses, [{ facetId: "urn:f:1", name: "Profile", status: "processed" }]);
    assert.deepEqual(r.consentStatuses, [
      { facetId: "urn:f:1", consentRef: "urn:consent:urn:f:1", status: "valid", checkedAt: "2026-06-01T00:00:00.000Z" },
    ]);
    assert.deepEqual(
      [r.signatureCheck, r.freshnessCheck, r.keyRefResolution, r.revocationStatus],
      ["valid", "fresh", "unresolved", "unchecked"],
    );
    assert.equal(r.processedAt, "2026-06-01T00:00:00.000Z");
  });

  it("rejects a manifest changed after signing, and goes no further", async () => {
    const tampered = { ...signed(manifestFor("urn:eval:tampered"), key), subject: "did:web:mallory.example" };
    const r = await offlineEvaluate(text(tampered), at(NOW));
    assert.deepEqual(
      [r.outcome, r.signatureCheck, r.freshnessCheck, r.presentationProofStatus],
      ["rejected", "invalid", "not-evaluated", "not-evaluated"],
    );
    assert.deepEqual(
      r.warnings.map((w) => [w.code, w.rule, w.pointer]),
      [["um:reason:crypto:signature-invalid", "signature/invalid", "/signature/value"]],
    );
  });

  it("with a relying party's keys: resolved when pinned, refused when substituted or unknown", async () => {
    const manifest = signed(manifestFor("urn:eval:pinned"), key);
    const resolved = await offlineEvaluate(text(manifest), at(NOW), { keys: pinning(key) });
    assert.deepEqual([resolved.outcome, resolved.keyRefResolution], ["accepted", "resolved"]);
    const substituted = await offlineEvaluate(text(manifest), at(NOW), { keys: pinning(newKey()) });
    assert.deepEqual(
      [substituted.outcome, substituted.signatureCheck, substituted.warnings[0]?.rule],
      ["rejected", "invalid", "signature/key-mismatch"],
    );
    const unknown = await offlineEvaluate(text(manifest), at(NOW), {
      keys: { "did:web:other.example#k": pinning(key)[FIXTURE_KEY_REF]! },
    });
    assert.deepEqual(
      [unknown.keyRefResolution, unknown.signatureCheck, unknown.warnings[0]?.rule],
      ["unresolved", "invalid", "signature/unpinned-key"],
    );
  });

  describe("a keyRef that is its key (did:key, did:jwk), without the relying party's keys", () => {
    const attacker = newKey();
    const signedAs = (signer: KeyObject, keyRef: string, umid = "urn:eval:did") => {
      const manifest = manifestFor(umid);
      return { ...manifest, signature: signProfileA(manifest, signer, keyRef, new Date(NOW)) };
    };
    const withoutEmbeddedKey = (manifest: Record<string, unknown>) => {
      const { publicKeySpkiB64: _, ...signature } = manifest.signature as Record<string, unknown>;
      return { ...manifest, signature };
    };
    const outcome = (r: Receipt) => [r.outcome, r.signatureCheck, r.keyRefResolution, r.warnings.map((w) => w.rule)];
    const jwkRef = (signer: KeyObject) =>
      `${didJwkOf({ kty: "OKP", crv: "Ed25519", x: encodeBase64url(rawPublicKey(signer)) })}#0`;

    it("resolves when the keyRef names the key embedded and signing", async () => {
      for (const keyRef of [didKeyRef(key), jwkRef(key)])
        assert.deepEqual(outcome(await offlineEvaluate(text(signedAs(key, keyRef)), at(NOW))), [
          "accepted",
          "valid",
          "resolved",
          [],
        ]);
    });
    it("rejects another key embedded and signing under the keyRef: key substitution", async () => {
      for (const keyRef of [didKeyRef(key), jwkRef(key)]) {
        const r = await offlineEvaluate(text(signedAs(attacker, keyRef)), at(NOW));
        assert.deepEqual(outcome(r), ["rejected", "invalid", "resolved", ["signature/keyref-mismatch"]]);
        assert.deepEqual(
          [r.warnings[0]?.code, r.warnings[0]?.pointer],
          ["um:reason:crypto:signature-invalid", "/signature/publicKeySpkiB64"],
        );
      }
    });
    it("without an embedded key, verifies with the key the keyRef names", async () => {
      const own = withoutEmbeddedKey(signedAs(key, didKeyRef(key)));
      assert.deepEqual(outcome(await offlineEvaluate(text(own), at(NOW))), ["accepted", "valid", "resolved", []]);
      const other = withoutEmbeddedKey(signedAs(attacker, didKeyRef(key)));
      assert.deepEqual(outcome(await offlineEvaluate(text(other), at(NOW))), [
        "rejected",
        "invalid",
        "resolved",
        ["signature/invalid"],
      ]);
    });
    it("rejects a did:key that names no key, as it names none that could have signed", async () => {
      const keyRef = `${didKeyRef(key).split("#")[0]}#key-1`;
      assert.deepEqual(outcome(await offlineEvaluate(text(signedAs(key, keyRef)), at(NOW))), [
        "rejected",
        "invalid",
        "unresolved",
        ["signature/keyref-malformed"],
      ]);
    });
    it("with the relying party's keys, those come first: an unpinned did:key is refused", async () => {
      const r = await offlineEvaluate(text(signedAs(key, didKeyRef(key))), at(NOW), { keys: pinning(key) });
      assert.deepEqual(outcome(r), ["rejected", "invalid", "unresolved", ["signature/unpinned-key"]]);
    });
  });

  it("rejects a manifest that expired on a leap second, and a delegation that did", async () => {
    const leap = await run(
      manifestFor("urn:eval:leap", { issuedAt: "2016-01-01T00:00:00Z", expiresAt: "2016-12-31T23:59:60Z" }),
      at(NOW),
    );
    assert.deepEqual([leap.outcome, leap.freshnessCheck], ["rejected", "expired"]);
    const delegation = {
      "@type": "um:agentDelegation",
      delegateType: "bot",
      delegateId: "did:web:bot.example",
      delegatedBy: "did:web:fixture.example",
      delegatedAt: "2016-01-01T00:00:00Z",
      expiresAt: "2016-12-31T23:59:60Z",
      scope: ["x.y"],
    };
    const delegated = await run(manifestFor("urn:eval:leap-delegation", { pointers: [delegation] }), at(NOW));
    assert.deepEqual(
      [delegated.outcome, delegated.warnings.map((w) => w.code)],
      ["rejected", ["um:reason:delegation:expired"]],
    );
  });

  it("judges freshness by the context's clock, not the wall clock", async () => {
    const manifest = manifestFor("urn:eval:clock", {
      issuedAt: "2026-01-01T00:00:00Z",
      expiresAt: "2026-02-01T00:00:00Z",
    });
    assert.equal((await run(manifest, at("2026-01-15T00:00:00Z"))).freshnessCheck, "fresh");
    assert.equal(
      (await run(manifest, at("2026-02-01T00:00:00Z"))).freshnessCheck,
      "fresh",
      "at expiresAt itself, not yet past it",
    );
    assert.equal((await run(manifest, at("2026-02-01T00:00:00.001Z"))).freshnessCheck, "expired");
    assert.equal((await run(manifest, at("2025-12-31T23:59:00Z"))).freshnessCheck, "fresh", "60 seconds of clock skew");
    const early = await run(manifest, at("2025-12-31T23:58:59Z"));
    assert.deepEqual(
      [early.freshnessCheck, early.outcome, early.warnings[0]?.code],
      ["stale", "rejected", "um:reason:time:issued-in-future"],
    );
  });
});

/** A did-auth presentation proof (EXT-T1 §T1.2) made with `signer`, for `manifest` as signed. */
function withProof(
  manifest: Record<string, unknown>,
  proof: { challenge: string; audience: string; proofType?: string },
  signer: KeyObject = key,
) {
  const created = "2026-06-01T00:00:00Z";
  const hash = createHash("sha256").update(signingInput(manifest)).digest();
  const bound = Buffer.concat([hash, Buffer.from(proof.challenge), Buffer.from(proof.audience), Buffer.from(created)]);
  return {
    ...manifest,
    presentationProof: {
      proofType: "did-auth",
      ...proof,
      created,
      proofValue: encodeBase64url(sign(null, bound, signer)),
    },
  };
}

describe("evaluate(): presentation proofs (did-auth)", () => {
  const base = signed(manifestFor("urn:eval:presented"), key);
  const challenged = at(NOW, { verifierChallenge: "nonce-1", verifierAudience: "did:web:verifier.example" });
  const status = async (manifest: Record<string, unknown>, context = challenged) => {
    const r = await offlineEvaluate(text(manifest), context);
    return [r.presentationProofStatus, r.outcome];
  };

  it("verifies a proof made for this challenge and audience", async () => {
    assert.deepEqual(await status(withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example" })), [
      "verified",
      "accepted",
    ]);
  });
  it("refuses a proof whose signature is forged, or made by another key", async () => {
    const good = withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example" });
    const proof = good.presentationProof as Record<string, string>;
    const flipped = `${proof.proofValue![0] === "A" ? "B" : "A"}${proof.proofValue!.slice(1)}`;
    assert.deepEqual(await status({ ...good, presentationProof: { ...proof, proofValue: flipped } }), [
      "failed",
      "rejected",
    ]);
    assert.deepEqual(
      await status(withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example" }, newKey())),
      ["failed", "rejected"],
    );
  });
  it("refuses a proof moved to another manifest (it binds the signing-input hash)", async () => {
    const good = withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example" });
    const other = signed(manifestFor("urn:eval:other"), key);
    assert.deepEqual(await status({ ...other, presentationProof: good.presentationProof }), ["failed", "rejected"]);
  });
  it("refuses another challenge, another audience, and the proof types it cannot verify", async () => {
    assert.deepEqual(await status(withProof(base, { challenge: "nonce-0", audience: "did:web:verifier.example" })), [
      "failed",
      "rejected",
    ]);
    assert.deepEqual(await status(withProof(base, { challenge: "nonce-1", audience: "did:web:elsewhere.example" })), [
      "failed",
      "rejected",
    ]);
    assert.deepEqual(
      await status(
        withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example", proofType: "sd-jwt-kb" }),
      ),
      ["failed", "rejected"],
    );
  });
  it("without a challenge, needs no proof, and relies on none that fails", async () => {
    assert.deepEqual(await status(base, at(NOW)), ["absent", "accepted"]);
    assert.deepEqual(await status(base), ["missing-required", "rejected"]);
    const forged = withProof(base, { challenge: "nonce-1", audience: "did:web:verifier.example" }, newKey());
    assert.deepEqual(await status(forged, at(NOW)), ["failed", "accepted-with-warnings"]);
  });
});

describe("evaluate(): liveness classes (EXT-T1 §T1.3)", () => {
  const attested = (attestedAt: string, validUntil = "2026-06-02T00:00:00Z") =>
    manifestFor("urn:eval:live", {
      livenessAttestation: {
        proofType: "webauthn-uv",
        attestedAt,
        validUntil,
        proofValue: "x",
        userVerified: true,
        method: "webauthn-uv",
      },
    });
  for (const [attestedAt, now, expected] of [
    ["2026-06-01T00:00:00Z", "2026-06-01T00:01:00Z", "live"],
    ["2026-06-01T00:00:00Z", "2026-06-01T00:01:01Z", "recent"],
    ["2026-06-01T00:00:00Z", "2026-06-01T04:00:01Z", "stale"],
    ["2026-06-01T00:00:00Z", "2026-06-02T00:00:01Z", "unknown"],
    ["2026-06-01T00:05:00Z", "2026-06-01T00:00:00Z", "unknown"],
  ] as const) {
    it(`attested ${attestedAt}, evaluated ${now}: ${expected}`, async () => {
      const r = await run(attested(attestedAt), at(now));
      assert.deepEqual(r.livenessStatus, {
        freshnessClass: expected,
        validated: false,
        method: "webauthn-uv",
        userVerified: true,
      });
    });
  }
  it("never meets a liveness floor with an attestation it cannot validate", async () => {
    const m = {
      ...attested("2026-06-01T00:00:00Z"),
      facets: [facetOf("urn:f:1", { requiredLiveness: { minFreshness: "stale" } })],
      consents: [consentFor("urn:f:1")],
    };
    const r = await run(m, at("2026-06-01T00:00:10Z"));
    assert.equal(r.facetStatuses[0]!.status, "assuranceInsufficient");
    assert.equal(r.outcome, "rejected");
  });
});

describe("evaluate(): Consent and the facet floors", () => {
  const oneFacet = (facetExtra: Record<string, unknown>, consentExtra: Record<string, unknown> = {}) =>
    manifestFor("urn:eval:facet", {
      facets: [facetOf("urn:f:1", facetExtra)],
      consents: [consentFor("urn:f:1", consentExtra)],
    });
  const consentStatus = async (extra: Record<string, unknown>, context: EvaluationContext = at(NOW)) =>
    (await run(oneFacet({}, extra), context)).consentStatuses[0]!.status;

  it("a consent not yet granted is out of its window", async () =>
    assert.equal(await consentStatus({ grantedAt: "2026-07-01T00:00:00Z" }), "expired"));
  it("intends only `read` unless told otherwise", async () => {
    assert.equal(await consentStatus({ scope: ["display"] }), "scope-mismatch");
    assert.equal(await consentStatus({ scope: ["display"] }, at(NOW, { intendedScope: ["display"] })), "valid");
    assert.equal(
      await consentStatus({ scope: ["read"] }, at(NOW, { intendedScope: ["read", "cache"] })),
      "scope-mismatch",
    );
  });
  it("compares the purpose when the context states one", async () => {
    assert.equal(await consentStatus({}, at(NOW, { intendedPurpose: "display" })), "valid");
    assert.equal(await consentStatus({}, at(NOW, { intendedPurpose: "advertising" })), "purpose-mismatch");
  });
  it("processes a facet once any governing consent holds", async () => {
    const m = manifestFor("urn:eval:two", {
      facets: [facetOf("urn:f:1")],
      consents: [
        consentFor("urn:f:1", { "@id": "urn:c:old", withdrawnAt: "2026-02-01T00:00:00Z" }),
        consentFor("urn:f:1"),
      ],
    });
    const r = await run(m, at(NOW, { intendedPurpose: "display" }));
    assert.deepEqual(
      [r.outcome, r.facetStatuses[0]!.status, r.consentStatuses.map((c) => c.status)],
      ["accepted", "processed", ["withdrawn", "valid"]],
    );
  });
  it("withholds a facet above the verified trust tier; rejects when no facet is left", async () => {
    const only = await run(oneFacet({ requiredTrustTier: 1 }), at(NOW, { maxSupportedTrustTier: 1 }));
    assert.deepEqual([only.outcome, only.facetStatuses[0]!.status], ["rejected", "trustTierUnsupported"]);
    const m = manifestFor("urn:eval:mixed", {
      facets: [facetOf("urn:f:1", { requiredTrustTier: 1 }), facetOf("urn:f:2")],
      consents: [consentFor("urn:f:1"), consentFor("urn:f:2")],
    });
    const mixed = await run(m, at(NOW, { maxSupportedTrustTier: 1 }));
    assert.deepEqual(
      [mixed.outcome, mixed.facetStatuses.map((f) => f.status)],
      ["accepted-partial", ["trustTierUnsupported", "processed"]],
    );
  });
  it("meets an assurance floor with the class presented, and echoes it", async () => {
    const r = await run(
      oneFacet({ requiredAssuranceClass: "hardware-uv" }),
      at(NOW, { presentedAssuranceClass: "hardware-bound" }),
    );
    assert.deepEqual(r.facetStatuses[0], {
      facetId: "urn:f:1",
      status: "processed",
      assuranceStatus: { assertedClass: "hardware-bound", met: true },
    });
  });
  it("reports the first failing gate: sealed before consent before floors", async () => {
    const jwe = { protected: "p", recipients: [], iv: "i", ciphertext: "c", tag: "t" };
    const sealed = await run(
      manifestFor("urn:eval:sealed", {
        facets: [facetOf("urn:f:1", { encryptionProfile: "jwe-inline-v1", entity: jwe, requiredTrustTier: 3 })],
      }),
    );
    assert.equal(sealed.facetStatuses[0]!.status, "opaque");
    const denied = await run(oneFacet({ requiredAssuranceClass: "hardware-bound" }, { scope: ["display"] }));
    assert.equal(denied.facetStatuses[0]!.status, "consent-denied");
  });
});

describe("evaluate(): Arrive, and the context", () => {
  it("rejects text that is not JSON, saying where", async () => {
    const r = await offlineEvaluate('{"@id": "urn:x",\n  "a": tru }', at(NOW));
    assert.deepEqual([r.outcome, r.manifestId, r.signatureCheck], ["rejected", null, "not-evaluated"]);
    assert.deepEqual(
      [r.warnings[0]!.code, r.warnings[0]!.line, r.warnings[0]!.column],
      ["um:reason:arrive:malformed", 2, 8],
    );
  });
  it("reads bytes as UTF-8, strictly", async () => {
    const r = await offlineEvaluate(new Uint8Array([0x7b, 0xff, 0x7d]), at(NOW));
    assert.deepEqual([r.outcome, r.warnings[0]!.message], ["rejected", "not UTF-8 text"]);
    assert.equal(
      (await offlineEvaluate(Buffer.from(text(signed(manifestFor("urn:eval:bytes"), key))), at(NOW))).outcome,
      "accepted",
    );
  });
  it("holds to the resource limits", async () => {
    const r = await offlineEvaluate(text(signed(manifestFor("urn:eval:big"), key)), at(NOW), {
      limits: { maxManifestBytes: 100 },
    });
    assert.equal(r.warnings[0]!.code, "um:reason:arrive:too-large");
    const deep = await offlineEvaluate(
      text(signed(manifestFor("urn:eval:deep", { x: [[[[[[[[[[[1]]]]]]]]]]] }), key)),
      at(NOW),
    );
    assert.equal(deep.warnings[0]!.rule, "limits/depth");
  });
  it("refuses v0.1 and v0.2, which have no processing path here", async () => {
    const v02 = {
      ...manifestFor("urn:eval:v02"),
      "@context": "https://universalmanifest.net/ns/v0.2",
      manifestVersion: "0.2",
    };
    const r = await run(v02);
    assert.deepEqual([r.outcome, r.warnings[0]!.code], ["rejected", "um:reason:arrive:unsupported-version"]);
  });
  it("ignores a byte order mark, as check does", async () => {
    assert.equal(
      (await offlineEvaluate(`\uFEFF${text(signed(manifestFor("urn:eval:bom"), key))}`, at(NOW))).outcome,
      "accepted",
    );
  });
  it("takes an object parsed already", async () => {
    assert.equal((await offlineEvaluate(signed(manifestFor("urn:eval:object"), key), at(NOW))).outcome, "accepted");
  });
  it("throws ContextError for an unusable context, naming each fault", async () => {
    await assert.rejects(
      offlineEvaluate("{}", { nw: "x" } as EvaluationContext),
      (e: Error) => e instanceof ContextError && e.message.includes('"nw"'),
    );
    // Both faults, each by its member and the value refused.
    await assert.rejects(
      offlineEvaluate("{}", { now: "June 1st", maxSupportedTrustTier: 4 }),
      (e: Error) =>
        e instanceof ContextError &&
        ["now", '"June 1st"', "maxSupportedTrustTier", "4"].every((named) => e.message.includes(named)),
    );
    await assert.rejects(
      offlineEvaluate("{}", { intendedScope: [] }),
      (e: Error) => e instanceof ContextError && e.message.includes("intendedScope"),
    );
  });
  it(
    "reads a context's own members only: one named as Object.prototype's is unknown, " + "an inherited one is not read",
    async () => {
      for (const name of ["__proto__", "constructor", "valueOf", "hasOwnProperty", "toString"]) {
        const context = JSON.parse(`{${JSON.stringify(name)}:1}`) as EvaluationContext;
        await assert.rejects(
          offlineEvaluate("{}", context),
          (e: Error) => e instanceof ContextError && e.message.includes(JSON.stringify(name)),
          name,
        );
      }
      const inherited = Object.create({ now: "soon", maxSupportedTrustTier: 9 }) as EvaluationContext;
      const r = await offlineEvaluate(text(signed(manifestFor("urn:eval:inherited"), key)), inherited);
      assert.deepEqual([r.outcome, r.effectiveTrustTier], ["accepted", 0]);
    },
  );
  it("throws ContextError, never another error, for a member that is not JSON", async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const context of [{ now: 1n }, { intendedPurpose: circular }] as unknown as EvaluationContext[]) {
      await assert.rejects(
        offlineEvaluate("{}", context),
        (e: Error) => e instanceof ContextError,
        String(Object.keys(context)),
      );
    }
  });
  it("reads the wall clock only when the context gives no `now`", async () => {
    const before = Date.now();
    const r = await offlineEvaluate(text(signed(manifestFor("urn:eval:wall"), key)));
    assert.ok(Date.parse(r.processedAt!) >= before && Date.parse(r.processedAt!) <= Date.now());
  });
});

describe("manifest-resolver evaluate", () => {
  const dir = mkdtempSync(join(tmpdir(), "um-evaluate-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  // Offline: the fixtures' did:web host does not exist (tests/did-web.test.ts has evaluate fetch).
  const cli = (...args: string[]) => runCliInProcess(["evaluate", "--offline", ...args], process.cwd());
  const good = file("good.jsonld", JSON.stringify(signed(manifestFor("urn:eval:cli"), key), null, 2));

  it("prints the receipt, indented, and exits 0 when accepted", async () => {
    const result = await cli(good, "--now", NOW);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.startsWith('{\n  "@type"'), result.stdout);
    const receipt = JSON.parse(result.stdout) as Receipt;
    assert.deepEqual([receipt.outcome, receipt.processedAt], ["accepted", "2026-06-01T00:00:00.000Z"]);
    assert.equal(result.stderr, "", "no summary when stderr is not a terminal");
  });
  it("--json prints one line; --now overrides the context's clock; exits 1 when rejected", async () => {
    const result = await cli(
      good,
      "--json",
      "--context",
      '{"now":"2026-06-01T00:00:00Z","omitProcessedAt":true}',
      "--now",
      "2031-01-01T00:00:00Z",
    );
    assert.equal(result.status, 1);
    assert.equal(result.stdout.trim().split("\n").length, 1);
    assert.deepEqual(JSON.parse(result.stdout).freshnessCheck, "expired");
  });
  it("for a file that is not JSON: a rejected receipt, and file:line:col on stderr", async () => {
    const broken = file("broken.json", '{\n  "@id": "urn:x",\n  "@id": "urn:y"\n}');
    const result = await cli(broken);
    assert.equal(result.status, 1);
    assert.equal((JSON.parse(result.stdout) as Receipt).warnings[0]!.rule, "json/duplicate-key");
    const [problem, ...more] = printedProblems(result.stderr);
    assert.deepEqual(
      [problem?.file, problem?.rule, problem?.line, problem?.column, more],
      [broken, "json/duplicate-key", 3, 3, []],
    );
    assert.ok(problem!.message.includes('"@id"'), problem!.message);
  });
  it("reads no more of a file than the size limit, and rejects it as too large", async () => {
    const result = await runCliInProcess(["evaluate", good], process.cwd(), { UM_MAX_MANIFEST_BYTES: "100" });
    assert.equal(result.status, 1);
    assert.equal((JSON.parse(result.stdout) as Receipt).warnings[0]!.code, "um:reason:arrive:too-large");
  });
  it(
    "--keys FILE pins keys as _keys.json does: resolved when pinned, rejected naming " +
      "the keyRef otherwise, exit 2 for a bad file",
    async () => {
      const pinned = await cli(good, "--keys", file("keys.json", JSON.stringify(pinning(key))), "--now", NOW, "--json");
      assert.equal(pinned.status, 0, pinned.stderr);
      assert.deepEqual(
        [JSON.parse(pinned.stdout).outcome, JSON.parse(pinned.stdout).keyRefResolution],
        ["accepted", "resolved"],
      );
      for (const [keys, rule] of [
        [pinning(newKey()), "signature/key-mismatch"],
        [{ "did:web:other.example#key-1": pinning(key)[FIXTURE_KEY_REF]! }, "signature/unpinned-key"],
      ] as const) {
        const result = await cli(
          good,
          "--keys",
          file(`${rule.replace("/", "-")}.json`, JSON.stringify(keys)),
          "--now",
          NOW,
          "--json",
        );
        assert.equal(result.status, 1, result.stderr);
        const warning = (JSON.parse(result.stdout) as Receipt).warnings[0]!;
        assert.equal(warning.rule, rule);
        assert.ok(warning.message.includes(JSON.stringify(FIXTURE_KEY_REF)), warning.message);
      }
      const bad = await cli(good, "--keys", file("bad-keys.json", "{"));
      assertUsageError(bad, "--keys");
      // The usage error quotes the problem line: the file's fault at its place.
      const [fault] = printedProblems(bad.stderr.replace(/^manifest-resolver: --keys: /, ""));
      assert.deepEqual([resolve(fault!.file), fault?.line, fault?.column], [join(dir, "bad-keys.json"), 1, 2]);
      assert.ok(fault!.rule.startsWith("json/"), fault!.rule);
      assert.equal(bad.stderr.trimEnd().split("\n").length, 2, "the line, and the hint to --help");
    },
  );
  it("places a structural fault in the file", async () => {
    const { subject: _, ...noSubject } = manifestFor("urn:eval:nosubject");
    const result = await cli(file("nosubject.json", JSON.stringify(signed(noSubject, key), null, 2)));
    assert.equal(result.status, 1);
    const missing = printedProblems(result.stderr).filter((p) => p.rule === "schema/required");
    assert.deepEqual(
      missing.map((p) => [p.file, p.line, p.column]),
      [[join(dir, "nosubject.json"), 1, 1]],
    );
    assert.ok(missing[0]!.message.includes('"subject"'), missing[0]!.message);
  });
  it("places it from the evaluation's own parse, after a byte order mark too", async () => {
    const manifest = JSON.stringify(signed({ ...manifestFor("urn:eval:bom"), subject: 5 }, key), null, 2);
    const result = await cli(file("bom.json", `\uFEFF${manifest}`));
    assert.equal(result.status, 1);
    assert.match(result.stderr, /bom\.json:6:14 - error schema\/type: must be string at \/subject$/m);
  });
  it("--context: hostile JSON is one usage error naming --context and the fault, never a stack trace", async () => {
    // The fault: the member refused, or the depth allowed.
    for (const [context, fault] of [
      ['{"__proto__":1}', '"__proto__"'],
      ['{"constructor":1}', '"constructor"'],
      ['{"valueOf":1}', '"valueOf"'],
      ['{"hasOwnProperty":1}', '"hasOwnProperty"'],
      ['{"toString":"x"}', '"toString"'],
      [`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`, " 10 "],
      [`${"[".repeat(5000)}${"]".repeat(5000)}`, " 10 "],
    ] as const) {
      const result = await cli(good, "--context", context);
      assertUsageError(result, "manifest-resolver: --context", fault);
      const [, ...rest] = result.stderr.trimEnd().split("\n");
      assert.deepEqual(rest, ["Run 'manifest-resolver evaluate --help' for usage."]);
      assert.equal(result.stdout, "");
    }
  });
  // Each names what is wrong: the argument missing or extra, the file and its error code, the option, the value.
  for (const [what, args, named] of [
    ["no FILE", [], ["FILE"]],
    ["two FILEs", ["a.json", "b.json"], ["FILE", "2"]],
    ["a FILE that cannot be read", [join(dir, "absent.json")], [join(dir, "absent.json"), "ENOENT"]],
    ["--context not JSON", ["--context", "{now", "x"], ["--context"]],
    ["--context not an object", ["--context", "[]", "x"], ["--context"]],
    ["--context with an unknown member", ["--context", '{"maxSupportedTier":1}', "x"], ['"maxSupportedTier"']],
    ["--now not a date-time", ["--now", "yesterday", "x"], ["--now", "'yesterday'"]],
    ["--context with a now not a date-time", ["--context", '{"now":"tomorrow"}', "x"], ["now", '"tomorrow"']],
  ] as const) {
    it(`usage error (exit 2): ${what}`, async () => {
      const args2 = [...args].map((a) => (a === "x" ? good : a));
      const result = await cli(...args2);
      assertUsageError(result, ...named);
      assert.equal(result.stdout, "");
    });
  }
});
