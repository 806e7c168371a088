/**
 * Every conditional rule of the v0.4 schema, each with a passing and a failing case, and
 * the pointer and rule the failure is reported with; and an unknown member in each of its
 * objects, which none rejects.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { manifestSchema } from "../../core/validate/manifest-schema.ts";
import type { Validate } from "../../core/validate/schema-problems.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";
import { CONTEXT, manifestFor } from "../support/fixture-content.ts";
import { resourceValidator } from "../support/resource-validator.ts";

const validators = schemaValidators(CONTEXT, "");
const signature = { algorithm: "Ed25519", canonicalization: "JCS-RFC8785", keyRef: "did:web:x#k", value: "sig" };
const manifest = (extra: Record<string, unknown> = {}) => ({ ...manifestFor("urn:uuid:1"), signature, ...extra });
const withClaim = (claim: Record<string, unknown>) =>
  manifest({ claims: [{ "@type": "ex:claim", issuer: "did:web:i", ...claim }] });
const withFacet = (facet: Record<string, unknown>) =>
  manifest({ facets: [{ "@id": "urn:f", "@type": "um:Facet", ...facet }] });
const withPointer = (pointer: Record<string, unknown>) => manifest({ pointers: [pointer] });

/** A case passes, or fails with a problem at `pointer` under `rule`. */
function expectValid(value: unknown) {
  assert.deepEqual(validators.manifest(value), []);
}
function expectProblem(value: unknown, pointer: string, rule: string) {
  const problems = validators.manifest(value);
  assert.ok(
    problems.some((p) => p.pointer === pointer && p.rule === rule),
    `expected ${rule} at ${pointer}, got ${JSON.stringify(problems, null, 1)}`,
  );
}

const jwe = {
  protected: "p",
  recipients: [{ header: { kid: "did:web:k#1" }, encrypted_key: "k" }],
  iv: "i",
  ciphertext: "c",
  tag: "t",
};
const delegation = {
  "@type": "um:agentDelegation",
  delegateType: "ai-agent",
  delegatedBy: "did:web:a",
  delegatedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2026-02-01T00:00:00Z",
};
const attesterTriple = { attester: "did:web:r", attestationMethod: "in-person", attestedAt: "2026-01-01T00:00:00Z" };
const linkedSecret = {
  type: "ZkLinkedSecretProof",
  cryptosuite: "bbs-2023",
  proofPurpose: "authentication",
  proofValue: "z",
  publicInputs: { commitmentA: "a", commitmentB: "b" },
};
const hdDerivation = {
  type: "ZkHdDerivationProof",
  proofSystem: "groth16",
  circuit: "c",
  proofValue: "z",
  publicInputs: { publicKeyA: "a", publicKeyB: "b", derivationPathA: "m/0", derivationPathB: "m/1" },
};
const ceremony = {
  type: "ThresholdAttestationProof",
  threshold: "2-of-3",
  attesters: ["a", "b", "c"],
  ceremonyId: "c1",
  aggregateProof: "z",
};

describe("manifest envelope", () => {
  it("accepts a minimal signed manifest", () => expectValid(manifest()));
  it("accepts unknown members", () => expectValid(manifest({ "ex:extra": { any: ["thing"] } })));
  it("requires every envelope member", () => {
    for (const name of [
      "@context",
      "@id",
      "@type",
      "manifestVersion",
      "subject",
      "issuedAt",
      "expiresAt",
      "signature",
    ]) {
      const { [name]: _, ...rest } = manifest() as Record<string, unknown>;
      expectProblem(rest, "", "schema/required");
    }
  });
  it("accepts the context as a string or in an array", () => {
    expectValid(manifest({ "@context": [CONTEXT, "https://www.w3.org/ns/credentials/v2"] }));
  });
  it("rejects another context", () => {
    expectProblem(manifest({ "@context": "https://universalmanifest.net/ns/v0.3" }), "/@context", "schema/anyOf");
    expectProblem(manifest({ "@context": ["https://example.org/ns/v0.4"] }), "/@context", "schema/anyOf");
  });
  it("folds a failed anyOf into one problem with the rule in words", () => {
    const problems = validators.manifest(manifest({ "@context": 7 }));
    assert.deepEqual(
      problems.map(({ pointer, rule }) => ({ pointer, rule })),
      [{ pointer: "/@context", rule: "schema/anyOf" }],
    );
    // In words: the context it must be, not the branches of the schema that failed.
    assert.ok(problems[0]!.message.includes(JSON.stringify(CONTEXT)), problems[0]!.message);
  });
  it("requires um:Manifest in @type", () => {
    expectValid(manifest({ "@type": ["ex:Thing", "um:Manifest"] }));
    expectProblem(manifest({ "@type": ["ex:Thing"] }), "/@type", "schema/anyOf");
  });
  it("requires manifestVersion 0.4", () =>
    expectProblem(manifest({ manifestVersion: "0.5" }), "/manifestVersion", "schema/const"));
  it("requires RFC 3339 date-times", () =>
    expectProblem(manifest({ issuedAt: "2026-01-01 00:00" }), "/issuedAt", "schema/format"));
  it("says what form a date-time takes", () => {
    assert.deepEqual(
      validators.manifest(manifest({ expiresAt: "2030-01-01" })).map((p) => p.message),
      ['must be an RFC 3339 date-time such as 2026-11-23T09:00:00Z, found "2030-01-01"'],
    );
  });
  it("reports an impossible date as such, once", () => {
    const problems = validators.manifest(
      manifest({ issuedAt: "2026-02-30T00:00:00Z", expiresAt: "2026-03-01T00:00:00Z" }),
    );
    assert.deepEqual(problems, [
      {
        pointer: "/issuedAt",
        rule: "schema/format",
        message: 'no such date: February has 28 days in 2026, found "2026-02-30T00:00:00Z"',
      },
    ]);
    assert.equal(
      validators.manifest(manifest({ expiresAt: "2030-04-31T00:00:00Z" }))[0]?.message,
      'no such date: April has 30 days, found "2030-04-31T00:00:00Z"',
    );
  });
  it("bounds trust tiers to 0..3", () => {
    expectValid(manifest({ requiredTrustTier: 3 }));
    expectProblem(manifest({ requiredTrustTier: 4 }), "/requiredTrustTier", "schema/maximum");
    expectProblem(manifest({ requiredTrustTier: 1.5 }), "/requiredTrustTier", "schema/type");
  });
  it("requires the Profile A pair in the signature", () => {
    expectProblem(
      manifest({ signature: { ...signature, algorithm: "ES256" } }),
      "/signature/algorithm",
      "schema/const",
    );
    expectProblem(
      manifest({ signature: { ...signature, canonicalization: "URDNA2015" } }),
      "/signature/canonicalization",
      "schema/const",
    );
  });
});

describe("facets", () => {
  it("accepts floors", () =>
    expectValid(
      withFacet({
        requiredTrustTier: 2,
        requiredLiveness: { minFreshness: "recent", userVerified: true },
        requiredAssuranceClass: "hardware-bound",
      }),
    ));
  it("rejects an unknown assurance class", () =>
    expectProblem(
      withFacet({ requiredAssuranceClass: "titanium" }),
      "/facets/0/requiredAssuranceClass",
      "schema/enum",
    ));
  it("accepts an entity that is an object, a string or null", () => {
    for (const entity of [{ any: 1 }, "text", null]) expectValid(withFacet({ entity }));
  });
  it("rejects an entity of another type", () =>
    expectProblem(withFacet({ entity: 42 }), "/facets/0/entity", "schema/type"));
  it("encrypted: requires a JWE entity", () => {
    expectValid(withFacet({ encryptionProfile: "jwe-inline-v1", entity: jwe }));
    expectProblem(withFacet({ encryptionProfile: "jwe-inline-v1" }), "/facets/0", "schema/required");
    const { iv: _, ...noIv } = jwe;
    expectProblem(
      withFacet({ encryptionProfile: "jwe-inline-v1", entity: noIv }),
      "/facets/0/entity",
      "schema/required",
    );
    expectProblem(
      withFacet({ encryptionProfile: "jwe-inline-v1", entity: { ...jwe, recipients: [{ header: {} }] } }),
      "/facets/0/entity/recipients/0/header",
      "schema/required",
    );
  });
  it("encrypted: only jwe-inline-v1", () =>
    expectProblem(
      withFacet({ encryptionProfile: "jwe-v2", entity: jwe }),
      "/facets/0/encryptionProfile",
      "schema/const",
    ));
  it("requiredLiveness: a known floor, an object", () => {
    expectProblem(
      withFacet({ requiredLiveness: { minFreshness: "unknown" } }),
      "/facets/0/requiredLiveness/minFreshness",
      "schema/enum",
    );
    expectProblem(withFacet({ requiredLiveness: "live" }), "/facets/0/requiredLiveness", "schema/type");
  });
});

describe("claims", () => {
  const modes: [string, Record<string, string>, string][] = [
    ["sd-jwt-kb", { cnfThumbprint: "t" }, "cnfThumbprint"],
    ["bbs-holder-commitment", { commitment: "c", proofValue: "p" }, "commitment"],
    ["reciprocal-control", { boundDid: "did:web:b", subjectProof: "s", boundDidProof: "b" }, "boundDidProof"],
  ];
  for (const [mode, fields, required] of modes) {
    it(`holder binding ${mode}: requires ${Object.keys(fields).join(", ")}`, () => {
      expectValid(withClaim({ holderBinding: { mode, ...fields } }));
      const { [required]: _, ...missing } = fields;
      expectProblem(withClaim({ holderBinding: { mode, ...missing } }), "/claims/0/holderBinding", "schema/required");
    });
  }
  it("holder binding: non-empty where the spec says so", () => {
    expectProblem(
      withClaim({ holderBinding: { mode: "sd-jwt-kb", cnfThumbprint: "" } }),
      "/claims/0/holderBinding/cnfThumbprint",
      "schema/minLength",
    );
  });
  it("holder binding: known modes only", () =>
    expectProblem(withClaim({ holderBinding: { mode: "magic" } }), "/claims/0/holderBinding/mode", "schema/enum"));
  for (const proof of [linkedSecret, hdDerivation]) {
    it(`binding proof ${proof.type}: requires its fields and public inputs`, () => {
      expectValid(withClaim({ bindingProof: proof }));
      const { proofValue: _, ...noValue } = proof;
      expectProblem(withClaim({ bindingProof: noValue }), "/claims/0/bindingProof", "schema/required");
      expectProblem(
        withClaim({ bindingProof: { ...proof, publicInputs: {} } }),
        "/claims/0/bindingProof/publicInputs",
        "schema/required",
      );
    });
  }
  it("binding proof: known types only", () =>
    expectProblem(
      withClaim({ bindingProof: { ...linkedSecret, type: "ZkMagic" } }),
      "/claims/0/bindingProof/type",
      "schema/enum",
    ));
  it("ceremony proof: M-of-N threshold and attesters", () => {
    expectValid(withClaim({ ceremonyProof: ceremony }));
    expectProblem(
      withClaim({ ceremonyProof: { ...ceremony, threshold: "two of three" } }),
      "/claims/0/ceremonyProof/threshold",
      "schema/pattern",
    );
    expectProblem(
      withClaim({ ceremonyProof: { ...ceremony, attesters: [] } }),
      "/claims/0/ceremonyProof/attesters",
      "schema/minItems",
    );
  });
  it("claimProof: an object, a URI or proof entries", () => {
    for (const claimProof of [{}, "https://proofs.example/1", [{ proofType: "p" }]])
      expectValid(withClaim({ claimProof }));
    expectProblem(withClaim({ claimProof: 5 }), "/claims/0/claimProof", "schema/anyOf");
    expectProblem(withClaim({ claimProof: "not a uri" }), "/claims/0/claimProof", "schema/anyOf");
  });

  const cross = { "@type": "identity.crossDidBinding", boundDids: ["did:web:a", "did:web:b"] };
  it("cross-DID binding: the attester triple without a proof", () => {
    expectValid(withClaim({ ...cross, ...attesterTriple }));
    expectProblem(withClaim(cross), "/claims/0", "schema/required");
    const { attestedAt: _, ...partial } = attesterTriple;
    expectProblem(withClaim({ ...cross, ...partial }), "/claims/0", "schema/required");
  });
  it("cross-DID binding: a binding or ceremony proof stands in for the triple", () => {
    expectValid(withClaim({ ...cross, bindingProof: linkedSecret }));
    expectValid(withClaim({ ...cross, ceremonyProof: ceremony }));
  });
  it("cross-DID binding: at least two bound DIDs", () => {
    expectProblem(
      withClaim({ ...cross, ...attesterTriple, boundDids: ["did:web:a"] }),
      "/claims/0/boundDids",
      "schema/minItems",
    );
    expectProblem(
      withClaim({ "@type": "identity.crossDidBinding", ...attesterTriple }),
      "/claims/0",
      "schema/required",
    );
  });
  it("other claim types need no bound DIDs", () => expectValid(withClaim({ "@type": "age.over18" })));
});

/** A valid consent object. */
const consent = {
  "@id": "urn:c",
  "@type": "um:Consent",
  facetRef: "urn:f",
  scope: ["read"],
  purpose: "p",
  grantedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2026-02-01T00:00:00Z",
};

describe("consents", () => {
  it("accepts a consent", () => expectValid(manifest({ consents: [consent] })));
  it("requires facetRef", () => {
    const { facetRef: _, ...rest } = consent;
    expectProblem(manifest({ consents: [rest] }), "/consents/0", "schema/required");
  });
  it("requires a non-empty scope of non-empty strings", () => {
    expectProblem(manifest({ consents: [{ ...consent, scope: [] }] }), "/consents/0/scope", "schema/minItems");
    expectProblem(manifest({ consents: [{ ...consent, scope: [""] }] }), "/consents/0/scope/0", "schema/minLength");
  });
});

describe("pointers", () => {
  it("agent delegation: accepts a full one", () =>
    expectValid(withPointer({ ...delegation, scope: ["read"], livenessEndpoint: "https://a.example/live" })));
  it("agent delegation: requires its fields", () => {
    for (const name of ["delegateType", "delegatedBy", "delegatedAt", "expiresAt"]) {
      const { [name]: _, ...rest } = delegation as Record<string, unknown>;
      expectProblem(withPointer(rest), "/pointers/0", "schema/required");
    }
  });
  it("agent delegation: known delegate types only", () =>
    expectProblem(withPointer({ ...delegation, delegateType: "robot" }), "/pointers/0/delegateType", "schema/enum"));
  it("other pointer types need none of them", () =>
    expectValid(withPointer({ "@type": "um:homepage", target: "https://a.example" })));
});

describe("liveness and presentation", () => {
  const attestation = {
    proofType: "webauthn",
    attestedAt: "2026-01-01T00:00:00Z",
    validUntil: "2026-01-01T00:05:00Z",
    proofValue: "z",
  };
  it("liveness attestation: requires validUntil", () => {
    expectValid(manifest({ livenessAttestation: attestation }));
    const { validUntil: _, ...rest } = attestation;
    expectProblem(manifest({ livenessAttestation: rest }), "/livenessAttestation", "schema/required");
  });
  it("presentation proof: known proof types", () => {
    const proof = {
      proofType: "did-auth",
      challenge: "c",
      audience: "a",
      created: "2026-01-01T00:00:00Z",
      proofValue: "z",
    };
    expectValid(manifest({ presentationProof: proof }));
    expectProblem(
      manifest({ presentationProof: { ...proof, proofType: "jwt" } }),
      "/presentationProof/proofType",
      "schema/enum",
    );
  });
});

describe("other resources of section 2", () => {
  const session = resourceValidator("BilateralSession");
  const participants = [
    { did: "did:web:a", role: "initiator" },
    { did: "did:web:b", role: "responder" },
  ];
  const base = {
    "@type": "um:BilateralSession",
    sessionId: "s",
    exchangeId: "e",
    participants,
    initiatedAt: "2026-01-01T00:00:00Z",
    expiresAt: "2026-01-02T00:00:00Z",
    state: "initiated",
  };
  it("bilateral session: exactly two participants", () => {
    assert.deepEqual(session(base), []);
    assert.equal(session({ ...base, participants: [...participants, participants[0]] })[0]?.rule, "schema/maxItems");
    assert.equal(session({ ...base, participants: [participants[0]] })[0]?.rule, "schema/minItems");
  });
  it("bilateral session: known states", () =>
    assert.equal(session({ ...base, state: "paused" })[0]?.pointer, "/state"));
  const status = resourceValidator("StatusReference");
  it("status reference response", () => {
    assert.deepEqual(status({ manifestId: "urn:m", status: "revoked", updatedAt: "2026-01-01T00:00:00Z" }), []);
    assert.equal(
      status({ manifestId: "urn:m", status: "deleted", updatedAt: "2026-01-01T00:00:00Z" })[0]?.rule,
      "schema/enum",
    );
  });
  it("names an unknown resource", () =>
    assert.throws(
      () => resourceValidator("Nope"),
      (e: Error) => e.message.includes('"Nope"'),
    ));
});

describe("core §3.1.1, §4.1: an unknown member of every object the schema defines is ignored", () => {
  const attestation = { proofType: "w", attestedAt: "2026-01-01T00:00:00Z", validUntil: "2026-01-01T00:05:00Z" };
  const proof = { proofType: "did-auth", challenge: "c", audience: "a", created: "2026-01-01T00:00:00Z" };
  const session = {
    "@type": "um:BilateralSession",
    sessionId: "s",
    exchangeId: "e",
    participants: [
      { did: "did:web:a", role: "initiator" },
      { did: "did:web:b", role: "responder" },
    ],
    initiatedAt: "2026-01-01T00:00:00Z",
    expiresAt: "2026-01-02T00:00:00Z",
    state: "initiated",
  };
  /** The object's `$defs` name (or where it sits in one), a valid value holding it, and its pointer there. */
  const objects: [string, Validate, unknown, string][] = [
    ["Manifest", validators.manifest, manifest(), ""],
    ["Signature", validators.manifest, manifest(), "/signature"],
    ["Facet", validators.manifest, withFacet({}), "/facets/0"],
    [
      "RequiredLiveness",
      validators.manifest,
      withFacet({ requiredLiveness: { minFreshness: "live" } }),
      "/facets/0/requiredLiveness",
    ],
    ["Entity", resourceValidator("Entity"), { "@id": "urn:e", "@type": "ex:Entity" }, ""],
    [
      "JweEntity",
      validators.manifest,
      withFacet({ encryptionProfile: "jwe-inline-v1", entity: jwe }),
      "/facets/0/entity",
    ],
    ["JweEntity recipient", resourceValidator("JweEntity"), jwe, "/recipients/0"],
    ["JweEntity recipient header", resourceValidator("JweEntity"), jwe, "/recipients/0/header"],
    ["Claim", validators.manifest, withClaim({}), "/claims/0"],
    [
      "Claim proof entry",
      validators.manifest,
      withClaim({ claimProof: [{ proofType: "p" }] }),
      "/claims/0/claimProof/0",
    ],
    [
      "HolderBinding",
      validators.manifest,
      withClaim({ holderBinding: { mode: "sd-jwt-kb", cnfThumbprint: "t" } }),
      "/claims/0/holderBinding",
    ],
    ["BindingProof", validators.manifest, withClaim({ bindingProof: linkedSecret }), "/claims/0/bindingProof"],
    [
      "BindingProof publicInputs (linked secret)",
      validators.manifest,
      withClaim({ bindingProof: linkedSecret }),
      "/claims/0/bindingProof/publicInputs",
    ],
    [
      "BindingProof publicInputs (HD derivation)",
      validators.manifest,
      withClaim({ bindingProof: hdDerivation }),
      "/claims/0/bindingProof/publicInputs",
    ],
    ["CeremonyProof", validators.manifest, withClaim({ ceremonyProof: ceremony }), "/claims/0/ceremonyProof"],
    ["Consent", validators.manifest, manifest({ consents: [consent] }), "/consents/0"],
    ["Pointer", validators.manifest, withPointer({ "@type": "um:homepage" }), "/pointers/0"],
    ["Pointer (agent delegation)", validators.manifest, withPointer(delegation), "/pointers/0"],
    ["device", validators.manifest, manifest({ devices: [{}] }), "/devices/0"],
    [
      "PresentationProof",
      validators.manifest,
      manifest({ presentationProof: { ...proof, proofValue: "z" } }),
      "/presentationProof",
    ],
    [
      "LivenessAttestation",
      validators.manifest,
      manifest({ livenessAttestation: { ...attestation, proofValue: "z" } }),
      "/livenessAttestation",
    ],
    ["BilateralSession", resourceValidator("BilateralSession"), session, ""],
    ["BilateralSession participant", resourceValidator("BilateralSession"), session, "/participants/0"],
    [
      "StatusReference",
      resourceValidator("StatusReference"),
      { manifestId: "urn:m", status: "active", updatedAt: "2026-01-01T00:00:00Z" },
      "",
    ],
  ];

  for (const [name, validate, value, pointer] of objects) {
    it(`${name}: valid, and still valid with an unknown member`, () => {
      assert.deepEqual(validate(value), []);
      assert.deepEqual(validate(withUnknownMember(value, pointer)), []);
    });
  }

  it("the table names every object of $defs", () => {
    const named = new Set(objects.map(([name]) => name.split(" ")[0]));
    assert.deepEqual(
      Object.keys(manifestSchema().$defs).filter((def) => !named.has(def)),
      [],
    );
  });
});

/** A copy of `value` whose object at `pointer` has one more member, of a name no spec uses. */
function withUnknownMember(value: unknown, pointer: string): unknown {
  const copy = structuredClone(value);
  let at = copy as Record<string, unknown>;
  for (const token of pointer.split("/").slice(1)) at = at[token] as Record<string, unknown>;
  assert.equal(typeof at, "object", `no object at ${pointer}`);
  at["ex:unknownMember"] = { nested: [1] };
  return copy;
}
