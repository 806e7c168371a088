/**
 * One evaluation in progress: the receipt being filled in stage by stage, and whether a
 * mandatory check has failed. A warning is either critical (the manifest is rejected,
 * core §3.1.5) or a non-critical condition (at best `accepted-with-warnings`); both are
 * recorded, as §3.1.6 forbids suppressing a negative outcome.
 */
import type { CanonicalMembers } from "../crypto/jcs.ts";
import type { KeyPins } from "../crypto/profile-a.ts";
import type { RemoteKey } from "../did/did-web.ts";
import { pointerExcerpt } from "../excerpt.ts";
import { isJsonObject } from "../json/strict-json.ts";
import type { Problem } from "../validate/problem.ts";
import type { ResolvedContext } from "./context.ts";
import type { ReceiptDraft, Warning } from "./receipt.ts";
import type { Revocation } from "./revocation-input.ts";

export interface Evaluation {
  receipt: ReceiptDraft;
  context: ResolvedContext;
  /** The manifest once Arrive has read it. */
  manifest: Record<string, unknown>;
  /** "0.4", or "0.3" on the backwards-compatibility path of EXT-T1 §T1.6.4. */
  version: "0.4" | "0.3";
  members: CanonicalMembers;
  pins: KeyPins | undefined;
  /** Resolves a keyRef over the network (did:web), when the relying party allows it. */
  resolveRemote: RemoteResolver | undefined;
  /** The manifest's status as the relying party resolved it (Verify step 3), if it did. */
  revocation: Revocation | undefined;
  /** The manifest's verified public key, for proofs its holder made with it. */
  publicKey?: Uint8Array;
  signingInput?: Uint8Array;
  rejected: boolean;
}

/** Resolves a keyRef over the network (core/did/resolve-key-ref.ts, resolveKeyRefOnline). */
export type RemoteResolver = (keyRef: string) => Promise<RemoteKey>;

export function warn(ev: Pick<Evaluation, "receipt" | "rejected">, critical: boolean, warning: Warning): void {
  ev.receipt.warnings.push(warning);
  if (critical) ev.rejected = true;
}

/**
 * A problem found by a rule `check` shares, as a warning that keeps its rule and place (its member names excerpted).
 */
export function problemWarning(code: string, problem: Problem): Warning {
  const pointer = pointerExcerpt(problem.pointer);
  return { code, message: `${placeName(pointer)}: ${problem.message}`, rule: problem.rule, pointer };
}

/** How a message names the value at `pointer`. */
export function placeName(pointer: string): string {
  return pointer === "" ? "(root)" : pointer;
}

/** The receipt before any stage has run: every check "not-evaluated". */
export function blankReceipt(): ReceiptDraft {
  return {
    "@type": ["um:Receipt"],
    manifestId: null,
    outcome: "rejected",
    signatureCheck: "not-evaluated",
    freshnessCheck: "not-evaluated",
    keyRefResolution: "not-evaluated",
    revocationStatus: "unchecked",
    holderBindingStatus: "not-evaluated",
    presentationProofStatus: "not-evaluated",
    livenessStatus: { freshnessClass: "not-evaluated" },
    crossDidBindingStatus: "not-evaluated",
    effectiveTrustTier: 0,
    facetStatuses: [],
    consentStatuses: [],
    claimStatuses: [],
    unprocessedEntries: [],
    warnings: [],
  };
}

/** The objects of an optional array member, with their JSON pointers. */
export function entries(manifest: Record<string, unknown>, member: string): [Record<string, unknown>, string][] {
  const list = manifest[member];
  return Array.isArray(list)
    ? list.flatMap((item, i) =>
        isJsonObject(item) ? [[item, `/${member}/${i}`] as [Record<string, unknown>, string]] : [],
      )
    : [];
}

/** Whether a `@type` is, or (as an array) includes, `type`. */
export function hasType(object: Record<string, unknown>, type: string): boolean {
  const value = object["@type"];
  return value === type || (Array.isArray(value) && value.includes(type));
}
