/**
 * What a person reads first: whether to use the manifest, in plain words, from the
 * evaluator's receipt (core §3.3.1: its `outcome`, and its `warnings` for why), from the
 * resolver's own status listing when the manifest names none (EXT-OPT O2), or from why
 * the client could not resolve the UMID at all (contract §4.3: 404, 5xx, no answer).
 */
import type { Outcome, Receipt } from "../core/evaluate/index.ts";
import type { StatusDocument } from "../core/status/status-document.ts";

export type Tone = "ok" | "warn" | "bad";

export interface Verdict {
  tone: Tone;
  headline: string;
  /** Why, one sentence each. */
  reasons: string[];
}

const BY_OUTCOME: Record<Outcome, [Tone, string]> = {
  accepted: ["ok", "Usable"],
  "accepted-with-warnings": ["warn", "Usable with warnings"],
  "accepted-partial": ["warn", "Partly usable"],
  rejected: ["bad", "Do not use"],
};

/** Claim statuses that leave a claim out of what may be used (core §3.3.1). */
const UNUSABLE_CLAIMS = new Set(["trustTierUnsupported", "failed", "unprocessable"]);

/**
 * The verdict on `receipt`; `listed` is the resolver's status document for the UMID, asked
 * for when the manifest has no statusRef (so the receipt's revocationStatus is "unchecked").
 * A suspension listed there makes an accepted manifest at best usable with warnings.
 */
export function receiptVerdict(receipt: Receipt, listed?: StatusDocument): Verdict {
  const suspension =
    listed?.status === "suspended"
      ? [
          `the resolver lists it as suspended since ` +
            `${listed.updatedAt}${listed.reason === undefined ? "" : `: ${listed.reason}`}`,
        ]
      : [];
  const outcome = suspension.length > 0 && receipt.outcome === "accepted" ? "accepted-with-warnings" : receipt.outcome;
  const [tone, headline] = BY_OUTCOME[outcome];
  const reasons = [
    ...suspension,
    ...receipt.warnings.map((w) => w.message),
    ...(outcome === "rejected" ? [] : withheldParts(receipt)),
  ];
  if (reasons.length === 0)
    reasons.push("the signature verifies, the manifest is within its validity period, and nothing in it was withheld");
  if (outcome !== "rejected") reasons.push(...whoseKey(receipt));
  return { tone, headline, reasons };
}

/** What a facet status other than "withheld" says of a facet not processed. */
const FACET_WORDS: Partial<Record<Receipt["facetStatuses"][number]["status"], string>> = {
  "not-projected": "not read",
};

/** Each facet, consent and claim withheld or not verified, one sentence each. */
function withheldParts(receipt: Receipt): string[] {
  const because = (reason: string | undefined) => (reason === undefined ? "" : `: ${reason}`);
  return [
    ...receipt.facetStatuses
      .filter((f) => f.status !== "processed")
      .map(
        (f) => `facet ${f.name ?? f.facetId} ${FACET_WORDS[f.status] ?? "withheld"} (${f.status})${because(f.reason)}`,
      ),
    ...receipt.consentStatuses
      .filter((c) => c.status !== "valid")
      .map((c) => `consent ${c.consentRef} for facet ${c.facetId} not valid (${c.status})${because(c.reason)}`),
    ...receipt.claimStatuses
      .filter((c) => UNUSABLE_CLAIMS.has(c.status))
      .map((c) => `claim ${c.claimRef} not verified (${c.status})${because(c.reason)}`),
  ];
}

/**
 * Whether the key the signature verifies with is its signer's, and what says so (core
 * §1.6.4, step 4); when its keyRef was not resolved, why not, unless a warning said it.
 */
function whoseKey(receipt: Receipt): string[] {
  const by = receipt.keyRefResolvedBy;
  if (receipt.keyRefResolution === "resolved")
    return [
      by === "keys"
        ? "its key is the one you pinned for its keyRef"
        : by === "did:key" || by === "did:jwk"
          ? `its key is the one its keyRef names: a ${by} is its key`
          : `its key is confirmed by its signer's DID document, ${by}`,
    ];
  if (receipt.warnings.some((w) => w.code.startsWith("um:reason:key:"))) return [];
  const why =
    receipt.keyRefResolutionReason === "um:reason:key:offline"
      ? "its DID document was not fetched"
      : "its keyRef is of a kind this page does not resolve";
  return [`it verifies with the key the manifest embeds, and ${why}: nothing says that key is its signer's`];
}

/** The client found no manifest to evaluate: there is nothing to use. */
export function unresolvedVerdict(reason: string): Verdict {
  return { tone: "bad", headline: "Nothing to use", reasons: [reason] };
}
