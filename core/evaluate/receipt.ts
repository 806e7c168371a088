/**
 * The structured receipt (core §3.3.1, §3.3.1.1; EXT-T1 for the binding value sets): what
 * the evaluator did with one manifest, every check recorded, failed ones included. Beyond
 * the spec's value sets, a status field whose stage was never reached (the sequence was
 * cut short by a rejection) records "not-evaluated", as §3.3.1 asks of the first two.
 * receipt-schema.ts states all of it as a JSON Schema.
 */
import type { RuleId } from "../rules/index.ts";

/**
 * A registry code, `um:reason:<category>:<code>`: of a warning, `revocationReason` and `keyRefResolutionReason`. A
 * code's last part may hold digits: EXT-OPT O2.4 puts an HTTP status in one (`um:reason:status:http-502`). Here, not
 * in receipt-schema.ts, so that what checks a code does not bundle the receipt's whole schema.
 */
export const WARNING_CODE = /^um:reason:[a-z-]+:[a-z0-9-]+$/;

export type Outcome = "accepted" | "accepted-with-warnings" | "accepted-partial" | "rejected";
export type NotEvaluated = "not-evaluated";
export type FreshnessClass = "live" | "recent" | "stale" | "unknown";

export interface FacetStatus {
  facetId: string;
  status:
    | "processed"
    | "opaque"
    | "consent-denied"
    | "consent-missing"
    | "trustTierUnsupported"
    | "assuranceInsufficient"
    | "not-projected"
    | "written";
  name?: string;
  /** Registry-coded where a code applies (`um:reason:…`), then in words. */
  reason?: string;
  /** Present where the facet carries a `requiredAssuranceClass` floor. */
  assuranceStatus?: { assertedClass: "software" | "hardware-uv" | "hardware-bound"; met: boolean };
}

export interface ConsentStatus {
  facetId: string;
  consentRef: string;
  status: "valid" | "scope-mismatch" | "purpose-mismatch" | "condition-violated" | "expired" | "withdrawn";
  reason?: string;
  checkedAt?: string;
}

export interface ClaimStatus {
  claimRef: string;
  status: "verified" | "unverified" | "failed" | "unprocessable" | "trustTierUnsupported";
  /** The highest tier at which this evaluator could verify the claim. */
  tier: number;
  reason?: string;
}

export interface UnprocessedEntry {
  /** What kind of structural entry: `pointer`, `device`, `consent`, `actorState`. */
  kind: string;
  /** Its `@type`, or "" when it has none. */
  type: string;
  /** Its JSON pointer in the manifest. */
  at: string;
  ref?: string;
  reason?: string;
}

export interface Warning {
  /** A `um:reason:<category>:<code>` registry code (docs/library.md, "What a receipt says"). */
  code: string;
  message: string;
  /** For a problem found by the rules `check` shares: its rule, and the JSON pointer of the value at fault. */
  rule?: RuleId;
  pointer?: string;
  /** For input that is not JSON: where the parser stopped. */
  line?: number;
  column?: number;
}

export interface Receipt {
  "@type": ["um:Receipt"];
  /** `urn:um:receipt:sha256:…`, named by the receipt's content (receipt-id.ts). */
  receiptId: string;
  /** The manifest's `@id`; null when there was none to read. */
  manifestId: string | null;
  outcome: Outcome;
  signatureCheck: "valid" | "invalid" | "unsupported-profile" | NotEvaluated;
  freshnessCheck: "fresh" | "expired" | "stale" | NotEvaluated;
  keyRefResolution: "resolved" | "unresolved" | NotEvaluated;
  /**
   * What confirmed the key, when the keyRef is resolved (an extension of this evaluator): "keys" (the relying party
   * pinned it), "did:key" or "did:jwk" (the DID is its key), or the URL of the did:web document that lists it.
   */
  keyRefResolvedBy?: string;
  /** Why the keyRef is unresolved, as a registry code (`um:reason:key:…`; `offline` when the network was not used). */
  keyRefResolutionReason?: string;
  revocationStatus: "active" | "revoked" | "suspended" | "unchecked";
  /** Why the status is not "active", as a registry code (EXT-OPT O2.4), when a status was resolved (revocation.ts). */
  revocationReason?: string;
  /**
   * What the status was taken on, when one was resolved (an extension of this evaluator, as keyRefResolvedBy): "keys"
   * (a status list whose proof is by a key the relying party pinned), or the URL of the status document or list that
   * answered, trusted by its origin.
   */
  revocationResolvedBy?: string;
  holderBindingStatus: "verified" | "failed" | "unsupported-mode" | "absent" | NotEvaluated;
  presentationProofStatus: "verified" | "failed" | "missing-required" | "absent" | NotEvaluated;
  livenessStatus: {
    freshnessClass: FreshnessClass | NotEvaluated;
    validated?: boolean;
    method?: string;
    userVerified?: boolean;
  };
  crossDidBindingStatus: "verified" | "failed" | "absent" | "trustTierUnsupported" | NotEvaluated;
  effectiveTrustTier: number;
  facetStatuses: FacetStatus[];
  consentStatuses: ConsentStatus[];
  claimStatuses: ClaimStatus[];
  unprocessedEntries: UnprocessedEntry[];
  warnings: Warning[];
  processedAt?: string;
}

/** A receipt being filled in, stage by stage: its `receiptId` is named once it is complete. */
export type ReceiptDraft = Omit<Receipt, "receiptId">;
