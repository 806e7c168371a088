/**
 * The manifest v0.4 format (spec section 2) as one JSON Schema, draft 2020-12.
 *
 * Every resource of section 2 is a `$defs` entry, so other tools can validate a bilateral
 * session (2.10) or a status reference response (2.11) against the same rules. Every object
 * is open: an evaluator MUST ignore unknown members (core §3.1.1, §4.1), so not even the
 * one the published schema closes (`requiredLiveness`) rejects one; `check` warns of that
 * one instead (rule liveness/unknown-member). `anyOf` branches never use
 * `$ref`, so a failed `anyOf` folds into one message (see schema-problems.ts).
 * The context URL depends on the configured standards site, hence a function.
 */

export const SCHEMA_ID = "urn:manifest-resolver:schema:manifest-v0.4";

const nonEmptyString = { type: "string", minLength: 1 } as const;
const string = { type: "string" } as const;
const dateTime = { type: "string", format: "date-time" } as const;
const uri = { type: "string", format: "uri" } as const;
const trustTier = { type: "integer", minimum: 0, maximum: 3 } as const;
const stringArray = { type: "array", items: string } as const;
const nonEmptyStringArray = { type: "array", minItems: 1, items: nonEmptyString } as const;

/** "Must be, or (in an array) contain, `value`" — the rule for `@context` and `@type`. */
export function isOrContains(value: string) {
  return {
    description: `must be ${JSON.stringify(value)} or an array of strings that contains it`,
    anyOf: [{ const: value }, { type: "array", items: string, contains: { const: value } }],
  };
}

/** `if` the member `name` equals `value`, `then` apply `then`. */
function when(name: string, value: string, then: object) {
  return { if: { required: [name], properties: { [name]: { const: value } } }, then };
}

/**
 * The schema, whose `@context` rule names the configured namespace. Without one, as the
 * validator generated ahead of time is (core/validate/generated/), `@context` is only
 * required, and manifest-structure.ts applies the namespace rule in code.
 */
export function manifestSchema(contextUrl?: string) {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: SCHEMA_ID,
    $ref: "#/$defs/Manifest",
    $defs: {
      Manifest: {
        type: "object",
        required: ["@context", "@id", "@type", "manifestVersion", "subject", "issuedAt", "expiresAt", "signature"],
        properties: {
          "@context": contextUrl === undefined ? {} : isOrContains(contextUrl),
          "@id": nonEmptyString,
          "@type": isOrContains("um:Manifest"),
          manifestVersion: { const: "0.4" },
          subject: nonEmptyString,
          issuedAt: dateTime,
          expiresAt: dateTime,
          requiredTrustTier: trustTier,
          facets: { type: "array", items: { $ref: "#/$defs/Facet" } },
          claims: { type: "array", items: { $ref: "#/$defs/Claim" } },
          consents: { type: "array", items: { $ref: "#/$defs/Consent" } },
          devices: { type: "array", items: { type: "object" } },
          pointers: { type: "array", items: { $ref: "#/$defs/Pointer" } },
          signature: { $ref: "#/$defs/Signature" },
          presentationProof: { $ref: "#/$defs/PresentationProof" },
          livenessAttestation: { $ref: "#/$defs/LivenessAttestation" },
        },
      },

      Facet: {
        type: "object",
        required: ["@id", "@type"],
        properties: {
          "@id": nonEmptyString,
          "@type": isOrContains("um:Facet"),
          name: string,
          description: string,
          ref: string,
          requiredTrustTier: trustTier,
          requiredLiveness: { $ref: "#/$defs/RequiredLiveness" },
          requiredAssuranceClass: { enum: ["software", "hardware-uv", "hardware-bound"] },
          encryptionProfile: { const: "jwe-inline-v1" },
          // Spec 2.2 allows an Entity, a JWE entity, any object, a string or null: since any
          // object passes, the shapes of Entity and JWE entity only bind when encrypted.
          entity: { type: ["object", "string", "null"] },
        },
        if: { required: ["encryptionProfile"] },
        // biome-ignore lint/suspicious/noThenProperty: the then keyword of JSON Schema
        then: { required: ["entity"], properties: { entity: { $ref: "#/$defs/JweEntity" } } },
      },

      Entity: {
        type: "object",
        required: ["@id", "@type"],
        properties: {
          "@id": nonEmptyString,
          "@type": {
            description: "must be a string or a non-empty array of strings",
            anyOf: [string, { type: "array", minItems: 1, items: string }],
          },
        },
      },

      JweEntity: {
        type: "object",
        required: ["protected", "recipients", "iv", "ciphertext", "tag"],
        properties: {
          protected: nonEmptyString,
          recipients: {
            type: "array",
            items: {
              type: "object",
              required: ["header"],
              properties: {
                header: { type: "object", required: ["kid"], properties: { kid: nonEmptyString } },
                encrypted_key: string,
              },
            },
          },
          iv: nonEmptyString,
          ciphertext: nonEmptyString,
          tag: nonEmptyString,
          previousKid: string,
          rotationReason: string,
          revokedRecipientKid: string,
          revocationAction: string,
        },
      },

      Claim: {
        type: "object",
        required: ["@type", "issuer"],
        properties: {
          "@type": nonEmptyString,
          issuer: nonEmptyString,
          subject: string,
          issuedAt: dateTime,
          expiresAt: dateTime,
          claimProof: {
            description: "must be an object, a URI string, or an array of proof entries",
            anyOf: [
              { type: "object" },
              uri,
              {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    proofType: string,
                    proofPurpose: string,
                    verificationMethod: string,
                    statusRef: string,
                    proofValue: string,
                  },
                },
              },
            ],
          },
          requiredTrustTier: trustTier,
          holderBinding: { $ref: "#/$defs/HolderBinding" },
          bindingProof: { $ref: "#/$defs/BindingProof" },
          ceremonyProof: { $ref: "#/$defs/CeremonyProof" },
        },
        ...when("@type", "identity.crossDidBinding", {
          required: ["boundDids"],
          properties: {
            boundDids: { type: "array", minItems: 2, items: nonEmptyString },
            attester: nonEmptyString,
            attestationMethod: nonEmptyString,
            attestedAt: dateTime,
          },
          // Without a cryptographic proof, a person or authority must stand behind the binding.
          if: { not: { anyOf: [{ required: ["bindingProof"] }, { required: ["ceremonyProof"] }] } },
          // biome-ignore lint/suspicious/noThenProperty: the then keyword of JSON Schema
          then: { required: ["attester", "attestationMethod", "attestedAt"] },
        }),
      },

      HolderBinding: {
        type: "object",
        required: ["mode"],
        properties: {
          mode: { enum: ["sd-jwt-kb", "bbs-holder-commitment", "reciprocal-control"] },
          cnfThumbprint: string,
          commitment: string,
          proofValue: string,
          pseudonymScope: string,
          boundDid: string,
          subjectProof: string,
          boundDidProof: string,
        },
        allOf: [
          when("mode", "sd-jwt-kb", { required: ["cnfThumbprint"], properties: { cnfThumbprint: nonEmptyString } }),
          when("mode", "bbs-holder-commitment", {
            required: ["commitment", "proofValue"],
            properties: { commitment: nonEmptyString, proofValue: nonEmptyString },
          }),
          when("mode", "reciprocal-control", { required: ["boundDid", "subjectProof", "boundDidProof"] }),
        ],
      },

      BindingProof: {
        type: "object",
        required: ["type"],
        properties: { type: { enum: ["ZkLinkedSecretProof", "ZkHdDerivationProof"] } },
        allOf: [
          when("type", "ZkLinkedSecretProof", {
            required: ["cryptosuite", "proofPurpose", "proofValue", "publicInputs"],
            properties: {
              cryptosuite: nonEmptyString,
              proofPurpose: nonEmptyString,
              proofValue: nonEmptyString,
              publicInputs: {
                type: "object",
                required: ["commitmentA", "commitmentB"],
                properties: { commitmentA: string, commitmentB: string },
              },
            },
          }),
          when("type", "ZkHdDerivationProof", {
            required: ["proofSystem", "circuit", "proofValue", "publicInputs"],
            properties: {
              proofSystem: nonEmptyString,
              circuit: nonEmptyString,
              proofValue: nonEmptyString,
              publicInputs: {
                type: "object",
                required: ["publicKeyA", "publicKeyB", "derivationPathA", "derivationPathB"],
                properties: {
                  publicKeyA: string,
                  publicKeyB: string,
                  derivationPathA: string,
                  derivationPathB: string,
                },
              },
            },
          }),
        ],
      },

      CeremonyProof: {
        type: "object",
        required: ["type", "threshold", "attesters", "ceremonyId", "aggregateProof"],
        properties: {
          type: { const: "ThresholdAttestationProof" },
          threshold: { type: "string", pattern: "^\\d+-of-\\d+$" },
          attesters: nonEmptyStringArray,
          ceremonyId: nonEmptyString,
          aggregateProof: nonEmptyString,
        },
      },

      Consent: {
        type: "object",
        required: ["@id", "@type", "facetRef", "scope", "purpose", "grantedAt", "expiresAt"],
        properties: {
          "@id": nonEmptyString,
          "@type": isOrContains("um:Consent"),
          facetRef: nonEmptyString,
          scope: nonEmptyStringArray,
          purpose: nonEmptyString,
          grantedAt: dateTime,
          expiresAt: dateTime,
          grantor: string,
          withdrawnAt: dateTime,
          conditions: stringArray,
        },
      },

      Pointer: {
        type: "object",
        required: ["@type"],
        properties: {
          "@type": nonEmptyString,
          target: string,
          "@id": string,
          label: string,
          createdAt: dateTime,
          expiresAt: dateTime,
        },
        ...when("@type", "um:agentDelegation", {
          required: ["delegateType", "delegatedBy", "delegatedAt", "expiresAt"],
          properties: {
            delegateType: { enum: ["ai-agent", "bot", "proxy", "human-delegate"] },
            delegatedBy: nonEmptyString,
            delegatedAt: dateTime,
            delegateId: string,
            scope: stringArray,
            livenessEndpoint: uri,
          },
        }),
      },

      Signature: {
        type: "object",
        required: ["algorithm", "canonicalization", "keyRef", "value"],
        properties: {
          algorithm: { const: "Ed25519" },
          canonicalization: { const: "JCS-RFC8785" },
          keyRef: nonEmptyString,
          value: nonEmptyString,
          publicKeySpkiB64: nonEmptyString,
          created: dateTime,
          statusRef: uri,
          revocationCursor: string,
        },
      },

      PresentationProof: {
        type: "object",
        required: ["proofType", "challenge", "audience", "created", "proofValue"],
        properties: {
          proofType: { enum: ["sd-jwt-kb", "bbs-derived", "did-auth"] },
          challenge: nonEmptyString,
          audience: nonEmptyString,
          created: dateTime,
          proofValue: nonEmptyString,
        },
      },

      LivenessAttestation: {
        type: "object",
        required: ["proofType", "attestedAt", "validUntil", "proofValue"],
        properties: {
          proofType: nonEmptyString,
          attestedAt: dateTime,
          validUntil: dateTime,
          proofValue: nonEmptyString,
          method: string,
          userVerified: { type: "boolean" },
          attester: string,
        },
      },

      RequiredLiveness: {
        type: "object",
        required: ["minFreshness"],
        properties: {
          minFreshness: { enum: ["live", "recent", "stale"] },
          userVerified: { type: "boolean" },
        },
      },

      BilateralSession: {
        type: "object",
        required: ["@type", "sessionId", "exchangeId", "participants", "initiatedAt", "expiresAt", "state"],
        properties: {
          "@type": { const: "um:BilateralSession" },
          sessionId: nonEmptyString,
          exchangeId: nonEmptyString,
          participants: {
            type: "array",
            minItems: 2,
            maxItems: 2,
            items: {
              type: "object",
              required: ["did", "role"],
              properties: { did: nonEmptyString, role: { enum: ["initiator", "responder"] } },
            },
          },
          initiatedAt: dateTime,
          expiresAt: dateTime,
          state: { enum: ["initiated", "manifests-exchanged", "receipts-exchanged", "completed", "expired"] },
        },
      },

      StatusReference: {
        type: "object",
        required: ["manifestId", "status", "updatedAt"],
        properties: {
          manifestId: nonEmptyString,
          status: { enum: ["active", "revoked", "suspended"] },
          updatedAt: dateTime,
          reason: string,
          cursor: string,
          nextCheck: string,
        },
      },
    },
  };
}
