/**
 * One signed manifest for each shape v0.4 gives its members (UM v0.4 §2): facets, one of
 * them encrypted (`jwe-inline-v1`), consents, claims with holder bindings, proofs and a
 * ceremony, pointers with an agent delegation, and a liveness attestation. Made and
 * signed with the caller's key at test time: tests never read the publisher's content/.
 */
import type { KeyObject } from "node:crypto";
import { manifestFor, signed } from "./fixture-content.ts";

export function manifestsOfEveryShape(key: KeyObject): Record<string, unknown>[] {
  return SHAPES.map(([umid, extra]) => signed(manifestFor(umid, extra), key));
}

const SHAPES: [string, Record<string, unknown>][] = [
  [
    "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f",
    {
      subject: "did:web:alice.example",
      requiredTrustTier: 1,
      facets: [
        {
          "@id": "urn:um:facet:alice:public-profile",
          "@type": "um:Facet",
          name: "publicProfile",
          description: "Display name and avatar",
          requiredTrustTier: 1,
          entity: {
            "@id": "did:web:alice.example#profile",
            "@type": "schema:Person",
            "schema:name": "Alice Example",
            "schema:image": "https://alice.example/avatar.png",
          },
        },
        {
          "@id": "urn:um:facet:alice:payment-details",
          "@type": "um:Facet",
          name: "paymentDetails",
          requiredTrustTier: 2,
          requiredLiveness: { minFreshness: "recent", userVerified: true },
          requiredAssuranceClass: "hardware-uv",
          encryptionProfile: "jwe-inline-v1",
          entity: {
            protected: "eyJhbGciOiJFQ0RILUVTK0EyNTZLVyIsImVuYyI6IkEyNTZHQ00ifQ",
            recipients: [
              {
                header: { kid: "did:web:shop.example#key-agreement-1" },
                encrypted_key: "p0wM1dQ8rQ3a5uLkq6yB0VYvXj2nH7s9",
              },
            ],
            iv: "6JtYqZ3bV1kQ9pLx",
            ciphertext: "Qm9vb3N0cmFwLWNpcGhlcnRleHQtZm9yLXRoZS1zYW1wbGU",
            tag: "Vg3p9aKq1mZr7sXc0bNd2w",
          },
        },
      ],
      consents: [
        {
          "@id": "urn:um:consent:alice:shop-profile",
          "@type": "um:Consent",
          facetRef: "urn:um:facet:alice:public-profile",
          grantor: "did:web:alice.example",
          scope: ["read"],
          purpose: "Show Alice's name at checkout",
          grantedAt: "2026-11-01T09:00:00Z",
          expiresAt: "2030-11-01T09:00:00Z",
        },
        {
          "@id": "urn:um:consent:alice:shop-payment",
          "@type": ["um:Consent"],
          facetRef: "urn:um:facet:alice:payment-details",
          grantor: "did:web:alice.example",
          scope: ["read", "unlock.window"],
          purpose: "Pay for an order",
          grantedAt: "2026-11-01T09:00:00Z",
          expiresAt: "2030-12-01T09:00:00Z",
          conditions: ["single-use"],
        },
      ],
    },
  ],
  [
    "did:web:alice.example#manifest",
    {
      subject: "did:web:alice.example",
      claims: [
        {
          "@id": "urn:um:claim:alice:over-18",
          "@type": "age.over18",
          issuer: "did:web:registry.example",
          subject: "did:web:alice.example",
          issuedAt: "2026-10-01T00:00:00Z",
          expiresAt: "2030-10-01T00:00:00Z",
          requiredTrustTier: 1,
          holderBinding: { mode: "sd-jwt-kb", cnfThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs" },
          claimProof: [
            {
              proofType: "DataIntegrityProof",
              proofPurpose: "assertionMethod",
              verificationMethod: "did:web:registry.example#key-1",
              proofValue: "z58DAdFfa9SkqZMVPxAQp",
            },
          ],
        },
        {
          "@id": "urn:um:claim:alice:cross-did",
          "@type": "identity.crossDidBinding",
          issuer: "did:web:alice.example",
          boundDids: ["did:web:alice.example", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"],
          attester: "did:web:registry.example",
          attestationMethod: "in-person-document-check",
          attestedAt: "2026-10-01T12:00:00Z",
        },
      ],
    },
  ],
  [
    "urn:uuid:0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f",
    {
      subject: "did:web:bob.example",
      requiredTrustTier: 1,
      claims: [
        {
          "@id": "urn:um:claim:bob:linked-wallet",
          "@type": "identity.crossDidBinding",
          issuer: "did:web:bob.example",
          boundDids: ["did:web:bob.example", "did:pkh:eip155:1:0x52908400098527886E0F7030069857D2E4169EE7"],
          requiredTrustTier: 2,
          bindingProof: {
            type: "ZkLinkedSecretProof",
            cryptosuite: "bbs-2023",
            proofPurpose: "authentication",
            proofValue: "u2V0BhVhAq1",
            publicInputs: { commitmentA: "z3tCfA1", commitmentB: "z7dFbB2" },
          },
        },
        {
          "@id": "urn:um:claim:bob:board-approval",
          "@type": "org.boardApproval",
          issuer: "did:web:coop.example",
          requiredTrustTier: 3,
          holderBinding: {
            mode: "reciprocal-control",
            boundDid: "did:web:coop.example",
            subjectProof: "z3subjectProof",
            boundDidProof: "z3boundDidProof",
          },
          ceremonyProof: {
            type: "ThresholdAttestationProof",
            threshold: "2-of-3",
            attesters: ["did:web:a.coop.example", "did:web:b.coop.example", "did:web:c.coop.example"],
            ceremonyId: "urn:uuid:5e5e5e5e-6f6f-4a7a-8b8b-9c9c9c9c9c9c",
            aggregateProof: "z4aggregate",
          },
        },
      ],
    },
  ],
  [
    "urn:uuid:a9e7c3d1-2b4f-4e6a-8c0d-1f3e5a7b9c2d",
    {
      subject: "did:web:alice.example",
      pointers: [
        {
          "@type": "um:agentDelegation",
          "@id": "urn:um:pointer:alice:shopping-agent",
          label: "Grocery agent",
          delegateType: "ai-agent",
          delegateId: "did:web:agents.example:grocer",
          delegatedBy: "did:web:alice.example",
          delegatedAt: "2026-11-01T09:00:00Z",
          expiresAt: "2030-12-01T09:00:00Z",
          scope: ["read", "order.create"],
          livenessEndpoint: "https://agents.example/grocer/liveness",
        },
        { "@type": "um:homepage", target: "https://alice.example/" },
      ],
    },
  ],
  [
    "did:web:acme.example:units:42#manifest",
    {
      subject: "did:web:acme.example:units:42",
      facets: [
        {
          "@id": "urn:um:facet:acme:unit-42:contact",
          "@type": "um:Facet",
          name: "contact",
          requiredAssuranceClass: "software",
          entity: {
            "@id": "did:web:acme.example:units:42#contact",
            "@type": ["schema:Organization"],
            "schema:email": "unit42@acme.example",
          },
        },
      ],
      consents: [
        {
          "@id": "urn:um:consent:acme:contact-directory",
          "@type": "um:Consent",
          facetRef: "urn:um:facet:acme:unit-42:contact",
          scope: ["read"],
          purpose: "Partner directory listing",
          grantedAt: "2026-11-01T09:00:00Z",
          expiresAt: "2030-11-01T09:00:00Z",
        },
      ],
    },
  ],
  [
    "urn:example:registry/people/carol/2026",
    {
      subject: "did:web:carol.example",
      livenessAttestation: {
        proofType: "webauthn-uv",
        method: "platform-authenticator",
        attestedAt: "2026-11-01T09:00:00Z",
        validUntil: "2026-11-01T09:05:00Z",
        proofValue: "c2FtcGxlLWxpdmVuZXNzLXByb29m",
        userVerified: true,
        attester: "did:web:liveness.example",
      },
      facets: [
        {
          "@id": "urn:um:facet:carol:door-access",
          "@type": ["um:Facet", "ex:AccessCredential"],
          name: "doorAccess",
          requiredLiveness: { minFreshness: "live" },
          requiredAssuranceClass: "hardware-bound",
          entity: "badge-7731",
        },
      ],
      devices: [{ "@id": "urn:um:device:carol:phone", kind: "phone" }],
    },
  ],
];
