/**
 * The six things a relying party wants to know of a manifest, in the same order for every
 * verdict, as a certificate viewer lists what it checked: the signature (core §3.1.2), whose
 * key it is (§1.6.4, step 4), the validity dates (contract §1.6), the status (EXT-OPT O2),
 * the resolver's transparency log, and the trust tier (§3.1.5). Each is read off the
 * receipt the verdict comes from, so the list never says more than the receipt does.
 */
import type { AnsweredStatus, Resolved } from "../core/client/index.ts";
import type { Receipt, Warning } from "../core/evaluate/index.ts";
import { DEFINITIVE_FAULTS, type KeyRefFault } from "../core/did/key-ref-fault.ts";
import { instantWords, plain } from "./words.ts";

export type CheckId = "signature" | "key" | "fresh" | "status" | "logged" | "tier";
export type CheckResult = "pass" | "warn" | "fail" | "skip";

export interface Check {
  id: CheckId;
  label: string;
  result: CheckResult;
  /** One word or two: "verified", "not checked". */
  finding: string;
  /** Why, in a sentence. */
  sentence: string;
}

export interface LookupFacts {
  /** The receipt, and the manifest as read when one came; undefined when none did. */
  receipt?: Receipt | undefined;
  manifest?: Record<string, unknown> | undefined;
  /**
   * How the lookup proved its answer against the resolver's transparency log: not at all, with a log key alone (no
   * witness asked), or with a log policy (its quorum of witnesses asked).
   */
  logProof: "none" | "key" | "policy";
  /** With a policy: how many of the witnesses its quorum counts cosigned the log's checkpoint, and who did not. */
  logWitnesses?: Resolved["logWitnesses"] | undefined;
  /** The status the client read, with its date and reason, when the receipt records it. */
  status?: AnsweredStatus | undefined;
  /** Why there is no receipt, for the checks not made. */
  noReceipt?: string;
}

export const CHECK_ORDER: readonly CheckId[] = ["signature", "key", "fresh", "status", "logged", "tier"];

/** Which check each receipt warning's category is about: its sentence is that check's, not a reason of its own. */
const CATEGORY_CHECK: Readonly<Record<string, CheckId>> = {
  crypto: "signature",
  key: "key",
  time: "fresh",
  status: "status",
  log: "logged",
};

/** The check a warning belongs to, when one does. */
export function checkOf(warning: Warning): CheckId | undefined {
  if (warning.code === "um:reason:trust:tier-unsupported" && warning.pointer === "/requiredTrustTier") return "tier";
  return CATEGORY_CHECK[warning.code.split(":")[2] ?? ""];
}

export function checklist(facts: LookupFacts): Check[] {
  const { receipt } = facts;
  if (receipt === undefined) {
    const why = facts.noReceipt ?? "no manifest came";
    return CHECK_ORDER.map((id) => skipped(id, why));
  }
  const warningsOf = (id: CheckId) => receipt.warnings.filter((w) => checkOf(w) === id).map((w) => plain(w.message));
  const logRefusals = receipt.warnings.filter((w) => checkOf(w) === "logged");
  // A 410 carries no manifest: only its status, and the log's word on it, are known.
  const withdrawn = receipt.revocationStatus === "revoked" && facts.manifest === undefined;
  const notRead = "the resolver withdrew the manifest, so nothing of it was read";
  return [
    withdrawn ? skipped("signature", notRead) : signatureCheck(receipt, warningsOf("signature")),
    withdrawn ? skipped("key", notRead) : keyCheck(receipt, warningsOf("key")),
    withdrawn ? skipped("fresh", notRead) : freshCheck(receipt, facts.manifest, warningsOf("fresh")),
    statusCheck(receipt, facts.status, warningsOf("status")),
    loggedCheck(facts, logRefusals),
    withdrawn ? skipped("tier", notRead) : tierCheck(receipt, facts.manifest, warningsOf("tier")),
  ];
}

const LABELS: Record<CheckId, string> = {
  signature: "Signature",
  key: "Key",
  fresh: "Fresh",
  status: "Status",
  logged: "Logged",
  tier: "Trust tier",
};

function check(id: CheckId, result: CheckResult, finding: string, sentence: string): Check {
  return { id, label: LABELS[id], result, finding, sentence };
}

function skipped(id: CheckId, why: string): Check {
  return check(id, "skip", "not checked", why);
}

/** The first of `said`, else `otherwise`: the evaluator's own words where it gave some. */
function first(said: string[], otherwise: string): string {
  return said[0] ?? otherwise;
}

function signatureCheck(receipt: Receipt, said: string[]): Check {
  switch (receipt.signatureCheck) {
    case "valid":
      return check("signature", "pass", "verified", "the manifest is exactly what the key in it signed");
    case "invalid":
      return check(
        "signature",
        "fail",
        "does not verify",
        first(said, "the manifest was changed after it was signed, or was signed with another key"),
      );
    case "unsupported-profile":
      return check("signature", "fail", "not readable", first(said, "it is signed in a way this page cannot check"));
    default:
      return skipped("signature", "the manifest was refused before its signature could be checked");
  }
}

function keyCheck(receipt: Receipt, said: string[]): Check {
  if (receipt.keyRefResolution === "resolved") {
    const by = receipt.keyRefResolvedBy;
    return check(
      "key",
      "pass",
      "confirmed",
      by === "keys"
        ? "it is the key you pinned for this signer"
        : by === "did:key" || by === "did:jwk"
          ? `the signer's ${by} identifier is the key itself`
          : `the signer's DID document lists it, at ${by}`,
    );
  }
  if (receipt.keyRefResolution === "not-evaluated")
    return skipped("key", "the manifest was refused before its key could be looked up");
  // "offline" too: the network was not used (no KeyRefFault, which says why asking it failed).
  const fault = receipt.keyRefResolutionReason?.replace("um:reason:key:", "");
  if (fault !== undefined && DEFINITIVE_FAULTS.has(fault as KeyRefFault))
    return check("key", "fail", "not the signer's", first(said, "the signer's DID document names no such key"));
  return check(
    "key",
    "warn",
    "not confirmed",
    first(
      said,
      fault === "offline"
        ? "the signer's DID document was not fetched: nothing says the key in the manifest is the signer's"
        : "its key reference is of a kind this page does not look up: nothing says the key is the signer's",
    ),
  );
}

function freshCheck(receipt: Receipt, manifest: Record<string, unknown> | undefined, said: string[]): Check {
  const issued = typeof manifest?.issuedAt === "string" ? instantWords(manifest.issuedAt) : undefined;
  const expires = typeof manifest?.expiresAt === "string" ? instantWords(manifest.expiresAt) : undefined;
  switch (receipt.freshnessCheck) {
    case "fresh":
      return check(
        "fresh",
        "pass",
        "within its dates",
        expires === undefined ? "it is valid now" : `valid from ${issued ?? "its issue"} until ${expires}`,
      );
    case "expired":
      return check("fresh", "fail", "expired", first(said, `it expired ${expires ?? "before now"}`));
    case "stale":
      return check("fresh", "warn", "stale", first(said, "it is older than the freshness this page asks for"));
    default:
      return skipped("fresh", "the manifest was refused before its dates could be checked");
  }
}

function statusCheck(receipt: Receipt, seen: AnsweredStatus | undefined, said: string[]): Check {
  // The status document's own date and reason where the client read one; otherwise the evaluator's sentence.
  const read = (verb: string) =>
    seen === undefined
      ? first(said, `its publisher ${verb} it`)
      : `its publisher ${verb} it${seen.since === undefined ? "" : ` on ${instantWords(seen.since)}`}` +
        `${seen.reason === undefined ? "" : `: ${seen.reason}`}`;
  switch (receipt.revocationStatus) {
    case "active":
      return said.length > 0
        ? check("status", "warn", "active", said[0]!)
        : check("status", "pass", "active", "its publisher lists it as in force");
    case "suspended":
      return check("status", "warn", "suspended", read("suspended"));
    case "revoked":
      return check("status", "fail", "revoked", read("revoked"));
    default:
      return skipped(
        "status",
        first(
          said,
          receipt.signatureCheck === "valid"
            ? "no status was found"
            : "a status is asked only once the signature holds",
        ),
      );
  }
}

function loggedCheck(facts: LookupFacts, refusals: Warning[]): Check {
  if (facts.logProof === "none")
    return skipped("logged", "no log key or policy was given, so the resolver's transparency log was not read");
  const witnesses = facts.logWitnesses;
  const [refusal] = refusals;
  if (refusal !== undefined && witnesses !== undefined) {
    const count = `${witnesses.cosigned} of ${witnesses.of}`;
    if (refusal.code === "um:reason:log:unwitnessed" && witnesses.missing !== undefined)
      return check(
        "logged",
        "fail",
        "too few witnesses",
        `the log's checkpoint is witnessed by ${count}, fewer than the log policy asks for: no cosignature from ` +
          `${witnesses.missing.join(", ")}, so nothing shows that others are shown the same log`,
      );
    if (refusal.code === "um:reason:log:stale-cosignature")
      return check(
        "logged",
        "fail",
        "witnessed too long ago",
        `the log's checkpoint is witnessed by ${count} recently, fewer than the log policy asks for: its other ` +
          "cosignatures are too old to show that the log is still the one others are shown",
      );
  }
  if (refusal !== undefined) return check("logged", "fail", "not what the log says", plain(refusal.message));
  const latest = "the resolver's transparency log records this answer as the UMID's latest";
  // A policy of `quorum none` asks no witness, as a key alone does.
  if (witnesses !== undefined && witnesses.of > 0)
    return check(
      "logged",
      "pass",
      `witnessed by ${witnesses.cosigned} of ${witnesses.of}`,
      `${latest}, in a checkpoint the witnesses of the log policy cosigned`,
    );
  return check(
    "logged",
    "pass",
    "latest entry",
    `${latest}, signed by the log's key; no witness was asked whether others are shown the same log`,
  );
}

function tierCheck(receipt: Receipt, manifest: Record<string, unknown> | undefined, said: string[]): Check {
  // What a manifest whose signature does not hold says it needs is anyone's word: it is weighed at no tier.
  if (receipt.signatureCheck !== "valid" && said.length === 0)
    return skipped("tier", "only a manifest whose signature holds is weighed");
  const needed = typeof manifest?.requiredTrustTier === "number" ? manifest.requiredTrustTier : 0;
  const checked = receipt.effectiveTrustTier;
  if (said.length > 0 || needed > checked)
    return check("tier", "fail", `needs Tier ${needed}`, `it needs Tier ${needed}; this page checks Tier ${checked}`);
  const withheld =
    receipt.facetStatuses.some((f) => f.status === "trustTierUnsupported") ||
    receipt.claimStatuses.some((c) => c.status === "trustTierUnsupported");
  if (withheld)
    return check(
      "tier",
      "warn",
      "parts need more",
      `parts of it need a higher tier than Tier ${checked}, which this page checks`,
    );
  return check("tier", "pass", `Tier ${needed}`, `it needs Tier ${needed}, which this page checks`);
}
