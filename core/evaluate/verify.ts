/**
 * Stage 2, Verify (core §3.1.2, §1.6.4–1.6.5; EXT-T1 §T1.4): the signature under the
 * gate's rules (profile-a.ts, with the strict Ed25519 of ed25519-strict.ts), then
 * freshness at the context's clock, then the revocation status the relying party
 * resolved (revocation.ts), then the credential-binding sub-steps 2a–2c (2d, the
 * cross-DID bindings, is recorded per claim in project.ts). A failed signature or
 * freshness check, or a revoked status, ends the sequence: what comes after is
 * "not-evaluated". A status is recorded only for a manifest whose signature and freshness
 * held: the `statusRef` it came from is the signer's only once the signature is valid.
 * The keyRef is resolved (step 4 of §1.6.4) when it is a did:key or did:jwk, which are
 * their keys (core/did), whatever is pinned, or else when the relying party pinned it, or
 * else over the network when the relying party allows it (a did:web's document); any
 * other keyRef is "unresolved", and the embedded key is used.
 *
 * What this evaluator verifies of EXT-T1: presentation proofs of `proofType` `did-auth`
 * (Ed25519 by the manifest's own key over the signing-input hash, challenge, audience and
 * created); the other two proof types fail closed, as T1.2 requires. No holder-binding
 * mode and no liveness `proofType` is verified (their keys are not in the manifest), so
 * bindings record "unsupported-mode", attestations are classified but unvalidated, and
 * no claim is relied upon above Tier 0.
 */
import { decodeBase64url, utf8 } from "../base64url.ts";
import { isProfileA, keyRefKey, prepareProfileA, verdictProblems, type RemoteKeyRefKey } from "../crypto/profile-a.ts";
import { sha256, verifyEd25519 } from "../crypto/runtime-crypto.ts";
import { quoted } from "../excerpt.ts";
import { DEFINITIVE_FAULTS } from "../did/key-ref-fault.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { instant } from "../date-time.ts";
import { CLOCK_SKEW_MS, freshnessProblems } from "../validate/freshness.ts";
import { entries, problemWarning, warn, type Evaluation } from "./evaluation.ts";
import type { FreshnessClass, Receipt } from "./receipt.ts";
import { verifyRevocation } from "./revocation.ts";

export async function verify(ev: Evaluation): Promise<void> {
  if (!(await verifySignature(ev))) return;
  noteReceiptSigner(ev);
  if (!verifyFreshness(ev) || !verifyRevocation(ev)) return;
  ev.receipt.holderBindingStatus = holderBindingStatus(ev);
  ev.receipt.presentationProofStatus = await presentationProofStatus(ev);
  ev.receipt.livenessStatus = livenessStatus(ev);
}

async function verifySignature(ev: Evaluation): Promise<boolean> {
  const { receipt, manifest } = ev;
  const signature = manifest.signature as Record<string, unknown>;
  // Step 3 before step 4 (§1.6.4): no document is fetched for a signature that cannot be checked.
  const remote = await resolveKeyRef(ev, signature.keyRef, isProfileA(signature));
  if (remote === "refused") {
    receipt.signatureCheck = "invalid";
    return false;
  }
  if (!isProfileA(signature)) {
    receipt.signatureCheck = "unsupported-profile";
    const pair = `${quoted(signature.algorithm)} + ${quoted(signature.canonicalization)}`;
    warn(ev, true, {
      code: "um:reason:crypto:unsupported-profile",
      message: `signature profile ${pair} is not supported: only Profile A ("Ed25519" + "JCS-RFC8785")`,
      pointer: "/signature",
    });
    return false;
  }
  const { problems, pending } = prepareProfileA(manifest, ev.pins, ev.members, remote);
  if (pending !== undefined)
    problems.push(
      ...verdictProblems(await verifyEd25519(pending.publicKey, pending.message, pending.signature), pending),
    );
  if (problems.length > 0 || pending === undefined) {
    receipt.signatureCheck = "invalid";
    for (const problem of problems) warn(ev, true, problemWarning("um:reason:crypto:signature-invalid", problem));
    return false;
  }
  receipt.signatureCheck = "valid";
  ev.publicKey = pending.publicKey;
  ev.signingInput = pending.message;
  return true;
}

/**
 * Step 4 of §1.6.4, recorded: the key known apart from the manifest (pinned, or a
 * did:key or did:jwk, which are their keys, whatever is pinned), else the key resolved
 * over the network when the relying party allows it; what confirmed it, or why nothing
 * did. Whether the embedded key matches is prepareProfileA's to say. A DID document that
 * names no such key refuses the manifest ("refused"), as a key that differs does. A
 * resolution unavailable is a warning (the relying party asked for it, and SHOULD try
 * again, §1.6.4); one never tried (offline) is only recorded.
 */
async function resolveKeyRef(
  ev: Evaluation,
  keyRef: unknown,
  checkable: boolean,
): Promise<RemoteKeyRefKey | "refused" | undefined> {
  const { receipt } = ev;
  const known = keyRefKey(keyRef, ev.pins);
  if (known !== undefined && known.source !== "malformed") {
    receipt.keyRefResolution = "resolved";
    receipt.keyRefResolvedBy =
      known.source === "pin" ? "keys" : String(keyRef).startsWith("did:key:") ? "did:key" : "did:jwk";
    return undefined;
  }
  receipt.keyRefResolution = "unresolved";
  // A malformed did:key or did:jwk is the signature check's to reject; with pins, the world is closed.
  if (known !== undefined || ev.pins !== undefined || typeof keyRef !== "string") return undefined;
  if (ev.resolveRemote === undefined || !checkable) {
    receipt.keyRefResolutionReason = keyRef.startsWith("did:web:")
      ? "um:reason:key:offline"
      : "um:reason:key:unsupported-method";
    return undefined;
  }
  const remote = await ev.resolveRemote(keyRef);
  if ("fault" in remote) {
    receipt.keyRefResolutionReason = `um:reason:key:${remote.fault}`;
    if (DEFINITIVE_FAULTS.has(remote.fault)) {
      warn(ev, true, {
        code: receipt.keyRefResolutionReason,
        message: `names no key its DID has for signing, so the embedded key is not its signer's: ${remote.reason}`,
        rule: "signature/keyref-mismatch",
        pointer: "/signature/keyRef",
      });
      return "refused";
    }
    warn(ev, false, {
      code: receipt.keyRefResolutionReason,
      message: `nothing confirms the key is the signer's: ${remote.reason}`,
      pointer: "/signature/keyRef",
    });
    return undefined;
  }
  receipt.keyRefResolution = "resolved";
  receipt.keyRefResolvedBy = remote.documentUrl;
  return remote;
}

/**
 * A receipt manifest's subject is the evaluator whose record it is (EXT-OPT O3), and the
 * keyRef is outside what is signed: only a signature under a keyRef of the subject's own
 * DID makes it that evaluator's record. Anyone can sign a receipt naming anyone.
 */
function noteReceiptSigner(ev: Evaluation): void {
  const { manifest } = ev;
  const types = Array.isArray(manifest["@type"]) ? manifest["@type"] : [manifest["@type"]];
  if (!types.includes("um:Receipt")) return;
  const keyRef = String((manifest.signature as Record<string, unknown>).keyRef);
  const signer = keyRef.split("#")[0];
  if (signer === manifest.subject && ev.receipt.keyRefResolution === "resolved") return;
  warn(ev, false, {
    code: "um:reason:receipt:signer-unproven",
    message:
      signer === manifest.subject
        ? `this receipt's signing key is not confirmed as its evaluator's: keyRef ${quoted(keyRef)} is unresolved`
        : `this receipt names ${quoted(manifest.subject)} as its evaluator but is signed under ${quoted(keyRef)}, ` +
          "another DID's keyRef: it is not proven to be that evaluator's record",
    pointer: "/signature/keyRef",
  });
}

const FRESHNESS_CODES: Record<string, [Receipt["freshnessCheck"], string]> = {
  "time/expired": ["expired", "um:reason:time:expired"],
  "time/not-yet-issued": ["stale", "um:reason:time:issued-in-future"],
};

function verifyFreshness(ev: Evaluation): boolean {
  const problems = freshnessProblems(ev.manifest, ev.context.now);
  ev.receipt.freshnessCheck = problems.length === 0 ? "fresh" : FRESHNESS_CODES[problems[0]!.rule]![0];
  for (const problem of problems) warn(ev, true, problemWarning(FRESHNESS_CODES[problem.rule]![1], problem));
  return problems.length === 0;
}

/** 2a. No mode is verified here, so a binding present is "unsupported-mode"; v0.3 has none (T1.6.4). */
function holderBindingStatus(ev: Evaluation): Receipt["holderBindingStatus"] {
  if (ev.version === "0.3") return "absent";
  return entries(ev.manifest, "claims").some(([claim]) => isJsonObject(claim.holderBinding))
    ? "unsupported-mode"
    : "absent";
}

/**
 * 2b. A challenge issued and not answered, or answered wrongly, rejects (T1.2); a proof no challenge asked for is
 * checked all the same.
 */
async function presentationProofStatus(ev: Evaluation): Promise<Receipt["presentationProofStatus"]> {
  const { verifierChallenge, verifierAudience } = ev.context;
  const proof = ev.version === "0.4" ? ev.manifest.presentationProof : undefined;
  if (!isJsonObject(proof)) {
    if (verifierChallenge === undefined) return "absent";
    warn(ev, true, {
      code: "um:reason:presentation:missing-required",
      message:
        "this verifier issued a challenge and the manifest carries no presentationProof: " +
        "replay-suspect, refused for interactive verification",
    });
    return "missing-required";
  }
  const fault = await presentationProofFault(ev, proof, verifierChallenge, verifierAudience);
  if (fault === undefined) return "verified";
  // Replay-suspect: refused for an interactive verification; noted when no challenge was issued.
  const interactive = verifierChallenge !== undefined;
  const consequence = interactive
    ? "replay-suspect, refused for interactive verification"
    : "not relied upon (no challenge was issued)";
  warn(ev, interactive, {
    code: "um:reason:presentation:failed",
    message: `presentationProof ${fault}: ${consequence}`,
    pointer: "/presentationProof",
  });
  return "failed";
}

async function presentationProofFault(
  ev: Evaluation,
  proof: Record<string, unknown>,
  challenge?: string,
  audience?: string,
): Promise<string | undefined> {
  if (challenge !== undefined && proof.challenge !== challenge)
    return `answers challenge ${quoted(proof.challenge)}, not this verifier's ${quoted(challenge)}`;
  if (audience !== undefined && proof.audience !== audience)
    return `is addressed to ${quoted(proof.audience)}, not to this verifier, ${quoted(audience)}`;
  if (proof.proofType !== "did-auth")
    return (
      `proofType ${quoted(proof.proofType)} is not verified by this evaluator (only ` +
      `"did-auth"), so it fails closed`
    );
  const value = typeof proof.proofValue === "string" ? decodeBase64url(proof.proofValue) : undefined;
  if (value === undefined || value.length !== 64)
    return "proofValue is not the unpadded base64url of a 64-byte Ed25519 signature";
  // did-auth (T1.2): SHA-256 of the signing input, then challenge, audience and created.
  const hash = await sha256(ev.signingInput!);
  const bound = [String(proof.challenge), String(proof.audience), String(proof.created)].map((s) => utf8(s));
  const message = new Uint8Array(hash.length + bound.reduce((n, b) => n + b.length, 0));
  let offset = 0;
  for (const part of [hash, ...bound]) {
    message.set(part, offset);
    offset += part.length;
  }
  const verdict = await verifyEd25519(ev.publicKey!, message, value);
  return verdict === "valid"
    ? undefined
    : "does not verify under the manifest's key over its signing-input hash, challenge, audience and created";
}

/** 2c. The freshness class at the context's clock (T1.3); unvalidated, as no proofType is verified here. */
function livenessStatus(ev: Evaluation): Receipt["livenessStatus"] {
  const attestation = ev.version === "0.4" ? ev.manifest.livenessAttestation : undefined;
  if (!isJsonObject(attestation)) return { freshnessClass: "unknown" };
  return {
    freshnessClass: freshnessClass(
      instant(attestation.attestedAt),
      instant(attestation.validUntil),
      ev.context.now.getTime(),
    ),
    validated: false,
    ...(typeof attestation.method === "string" && { method: attestation.method }),
    ...(typeof attestation.userVerified === "boolean" && { userVerified: attestation.userVerified }),
  };
}

const LIVE_MS = 60_000;
const RECENT_MS = 4 * 3_600_000;

function freshnessClass(attestedAt: number | undefined, validUntil: number | undefined, now: number): FreshnessClass {
  // Past validUntil is "unknown" whatever attestedAt says; so is an attestation from the future.
  if (attestedAt === undefined || validUntil === undefined || now > validUntil || attestedAt > now + CLOCK_SKEW_MS)
    return "unknown";
  const age = now - attestedAt;
  return age <= LIVE_MS ? "live" : age <= RECENT_MS ? "recent" : "stale";
}
