/**
 * What a person reads first: whether to use the manifest, and why, most serious first. The
 * outcome is the receipt's (core §3.3.1), never another: the receipt printed below the
 * verdict is the one it was made from. The reasons are the failed checks, then the checks
 * with a warning, then the receipt's other warnings, then each part withheld; so the one a
 * screen reader hears, the first, is the cause of the outcome.
 */
import type { Outcome, Receipt } from "../core/evaluate/index.ts";
import { type Check, checkOf } from "./checklist.ts";
import { plain } from "./words.ts";

export type Tone = "ok" | "warn" | "bad" | "redirect" | "none";
export type NoReceipt = "not-found" | "unresolved" | "cancelled";

export interface Verdict {
  outcome: Outcome | NoReceipt;
  tone: Tone;
  headline: string;
  /** Why, one sentence each, most serious first. */
  reasons: string[];
  /** The registry codes behind the reasons (`um:reason:…`), for the page's "Reason codes". */
  codes: string[];
}

const BY_OUTCOME: Record<Outcome, [Tone, string]> = {
  accepted: ["ok", "Usable"],
  "accepted-with-warnings": ["warn", "Usable with warnings"],
  "accepted-partial": ["warn", "Partly usable"],
  rejected: ["bad", "Do not use"],
};

/** Claim statuses that leave a claim out of what may be used (core §3.3.1). */
const UNUSABLE_CLAIMS = new Set(["trustTierUnsupported", "failed", "unprocessable"]);

/** The verdict on `receipt`, whose `checks` are the page's checklist of it; `notes` are said last. */
export function receiptVerdict(receipt: Receipt, checks: Check[], notes: string[] = []): Verdict {
  const [tone, headline] = BY_OUTCOME[receipt.outcome];
  const withheld = withheldParts(receipt);
  const sentences = (result: Check["result"]) =>
    checks
      // The parts withheld for their tier say it part by part.
      .filter((c) => c.result === result && !(c.id === "tier" && withheld.length > 0))
      .map((c) => `${c.label}: ${c.sentence}`);
  const reasons = [
    ...sentences("fail"),
    ...withheld,
    ...sentences("warn"),
    ...receipt.warnings.filter((w) => checkOf(w) === undefined).map((w) => plain(w.message)),
    ...unreadParts(receipt),
  ];
  if (reasons.length === 0) reasons.push("every check passed, and nothing in it was withheld");
  const codes = [
    ...receipt.warnings.map((w) => w.code),
    ...[receipt.keyRefResolutionReason, receipt.revocationReason].filter((c) => c !== undefined),
  ];
  return { outcome: receipt.outcome, tone, headline, reasons: [...reasons, ...notes], codes: [...new Set(codes)] };
}

const because = (reason: string | undefined) => (reason === undefined ? "" : `: ${plain(reason)}`);

/** Each facet, consent and claim withheld or not verified, one sentence each. */
function withheldParts(receipt: Receipt): string[] {
  return [
    ...receipt.facetStatuses
      .filter((f) => f.status !== "processed" && f.status !== "not-projected")
      .map((f) => `the part ${f.name ?? f.facetId} is withheld${because(f.reason)}`),
    ...receipt.consentStatuses
      .filter((c) => c.status !== "valid")
      .map((c) => `the consent ${c.consentRef} does not hold${because(c.reason)}`),
    ...receipt.claimStatuses
      .filter((c) => UNUSABLE_CLAIMS.has(c.status))
      .map((c) => `the claim ${c.claimRef} is not verified${because(c.reason)}`),
  ];
}

/** Each facet this evaluation did not read (core §3.1.3): no fault, said last. */
function unreadParts(receipt: Receipt): string[] {
  return receipt.facetStatuses
    .filter((f) => f.status === "not-projected")
    .map((f) => `the part ${f.name ?? f.facetId} was not read${because(f.reason)}`);
}

const NO_RECEIPT: Record<NoReceipt, string> = {
  "not-found": "Not found",
  unresolved: "Nothing to use",
  cancelled: "Cancelled",
};

/**
 * No manifest came, so there is nothing to use: `reason` says why. A redirect whose target this page cannot read is
 * no fault of the manifest: it reads "Moved elsewhere", in a colour of its own.
 */
export function unresolvedVerdict(reason: string, outcome: NoReceipt, redirected = false): Verdict {
  return redirected
    ? { outcome, tone: "redirect", headline: "Moved elsewhere", reasons: [reason], codes: [] }
    : {
        outcome,
        tone: outcome === "cancelled" ? "none" : "bad",
        headline: NO_RECEIPT[outcome],
        reasons: [reason],
        codes: [],
      };
}
