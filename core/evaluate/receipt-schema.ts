/**
 * The structured receipt (core §3.3.1 and §3.3.1.1; value sets of EXT-T1 §T1.1–T1.4) as
 * a JSON Schema, draft 2020-12, for consumers of receipts and for the tests that hold
 * every receipt this evaluator makes to it. The spec's required members are required
 * here, with the members this evaluator always records (`receiptId` among them: a SHOULD
 * of §3.3.1, named by content, receipt-id.ts); objects stay open, as a receipt may carry
 * more (`exchangeId`). "not-evaluated" is in the spec's value sets of `signatureCheck` and
 * `freshnessCheck` (§3.3.1; the public suite expects it of `freshnessCheck`). The other
 * checks of Verify (`keyRefResolution`, `holderBindingStatus`, `presentationProofStatus`,
 * `livenessStatus.freshnessClass`, `crossDidBindingStatus`) take it too, beyond their
 * spec value sets, for the same reason §3.3.1 gives: a stage the sequence did not reach
 * records "not-evaluated" rather than a value that would claim a check was made. A
 * registry code's last part may hold digits: EXT-OPT O2.4 puts an HTTP status in one
 * (`um:reason:status:http-502`).
 */

import { WARNING_CODE } from "./receipt.ts";

const NOT_EVALUATED = "not-evaluated";
const dateTime = { type: "string", format: "date-time" } as const;
const text = { type: "string" } as const;
const nonEmpty = { type: "string", minLength: 1 } as const;
const ASSURANCE = ["software", "hardware-uv", "hardware-bound"];

function oneOf(...values: string[]) {
  return { enum: values };
}

function listOf(required: string[], properties: Record<string, object>) {
  return { type: "array", items: { type: "object", required, properties } };
}

export const receiptSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "urn:manifest-resolver:schema:receipt-v0.4",
  title: "Universal Manifest v0.4 structured receipt",
  type: "object",
  required: [
    "@type",
    "receiptId",
    "manifestId",
    "outcome",
    "signatureCheck",
    "freshnessCheck",
    "facetStatuses",
    "keyRefResolution",
    "revocationStatus",
    "holderBindingStatus",
    "presentationProofStatus",
    "livenessStatus",
    "crossDidBindingStatus",
    "effectiveTrustTier",
    "consentStatuses",
    "claimStatuses",
    "unprocessedEntries",
    "warnings",
  ],
  properties: {
    "@type": {
      anyOf: [{ const: "um:Receipt" }, { type: "array", items: text, contains: { const: "um:Receipt" } }],
    },
    manifestId: { type: ["string", "null"] },
    outcome: oneOf("accepted", "accepted-with-warnings", "accepted-partial", "rejected"),
    signatureCheck: oneOf("valid", "invalid", "unsupported-profile", NOT_EVALUATED),
    freshnessCheck: oneOf("fresh", "expired", "stale", NOT_EVALUATED),
    keyRefResolution: oneOf("resolved", "unresolved", NOT_EVALUATED),
    keyRefResolvedBy: nonEmpty,
    keyRefResolutionReason: { type: "string", pattern: WARNING_CODE.source },
    revocationStatus: oneOf("active", "revoked", "suspended", "unchecked"),
    revocationReason: { type: "string", pattern: WARNING_CODE.source },
    revocationResolvedBy: nonEmpty,
    holderBindingStatus: oneOf("verified", "failed", "unsupported-mode", "absent", NOT_EVALUATED),
    presentationProofStatus: oneOf("verified", "failed", "missing-required", "absent", NOT_EVALUATED),
    livenessStatus: {
      type: "object",
      required: ["freshnessClass"],
      properties: {
        freshnessClass: oneOf("live", "recent", "stale", "unknown", NOT_EVALUATED),
        validated: { type: "boolean" },
        method: text,
        userVerified: { type: "boolean" },
      },
    },
    crossDidBindingStatus: oneOf("verified", "failed", "absent", "trustTierUnsupported", NOT_EVALUATED),
    effectiveTrustTier: { type: "integer", minimum: 0, maximum: 3 },
    facetStatuses: listOf(["facetId", "status"], {
      facetId: text,
      status: oneOf(
        "processed",
        "opaque",
        "consent-denied",
        "consent-missing",
        "trustTierUnsupported",
        "assuranceInsufficient",
        "not-projected",
        "written",
      ),
      name: text,
      reason: text,
      assuranceStatus: {
        type: "object",
        required: ["assertedClass", "met"],
        properties: { assertedClass: { enum: ASSURANCE }, met: { type: "boolean" } },
      },
    }),
    consentStatuses: listOf(["facetId", "consentRef", "status"], {
      facetId: text,
      consentRef: text,
      status: oneOf("valid", "scope-mismatch", "purpose-mismatch", "condition-violated", "expired", "withdrawn"),
      reason: text,
      checkedAt: dateTime,
    }),
    claimStatuses: listOf(["claimRef", "status"], {
      claimRef: text,
      status: oneOf("verified", "unverified", "failed", "unprocessable", "trustTierUnsupported"),
      tier: { type: "integer", minimum: 0, maximum: 3 },
      reason: text,
    }),
    unprocessedEntries: listOf(["kind", "type"], { kind: nonEmpty, type: text, at: text, ref: text, reason: text }),
    warnings: listOf(["code", "message"], {
      code: { type: "string", pattern: WARNING_CODE.source },
      message: nonEmpty,
      rule: text,
      pointer: text,
      line: { type: "integer", minimum: 1 },
      column: { type: "integer", minimum: 1 },
    }),
    processedAt: dateTime,
    receiptId: { type: "string", pattern: "^urn:um:receipt:sha256:[A-Za-z0-9_-]{43}$" },
    exchangeId: text,
    evaluatorId: text,
  },
} as const;
