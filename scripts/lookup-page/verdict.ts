/**
 * What a person reads first: whether to use the manifest, in plain words, from the
 * evaluator's receipt (core §3.3.1: its `outcome`, and its `warnings` for why), or from why
 * the client could not resolve the UMID at all (contract §4.3: 404, 5xx, no answer).
 */
import type { Outcome, Receipt } from "../../core/evaluate/index.ts";

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

export function receiptVerdict(receipt: Receipt): Verdict {
  const [tone, headline] = BY_OUTCOME[receipt.outcome];
  const withheld = receipt.outcome === "accepted-partial" ? receipt.facetStatuses.filter((f) => f.status !== "processed").map((f) => `facet ${f.name ?? f.facetId} withheld (${f.status})${f.reason === undefined ? "" : `: ${f.reason}`}`) : [];
  const reasons = [...receipt.warnings.map((w) => w.message), ...withheld];
  if (reasons.length === 0) reasons.push("the signature verifies, the manifest is within its validity period, and nothing in it was withheld");
  return { tone, headline, reasons };
}

/** The client found no manifest to evaluate: there is nothing to use. */
export function unresolvedVerdict(reason: string): Verdict {
  return { tone: "bad", headline: "Nothing to use", reasons: [reason] };
}
