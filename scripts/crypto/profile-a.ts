/**
 * Signature Profile A (spec 2.6, 5.3): Ed25519 over the JCS canonical bytes of the
 * manifest without `signature`, `presentationProof` and `postQuantumSignature`; `value`
 * is unpadded base64url of the 64-byte signature; the key is an SPKI in standard base64.
 *
 * Verification is strict (ed25519-strict.ts refuses weak keys and malleable signatures
 * first), then Node's native Ed25519 (an order of magnitude faster than JS), with key
 * objects cached by their SPKI text: building one costs as much as a verification.
 */
import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { decodeBase64url, encodeBase64url } from "../../core/base64url.ts";
import { ed25519Weakness, type Ed25519Weakness } from "../../core/crypto/ed25519-strict.ts";
import type { Problem } from "../../core/validate/problem.ts";
import type { CanonicalMembers } from "../../core/crypto/jcs.ts";
import { PROFILE_A, signingInputText } from "../../core/crypto/signing-input.ts";
/** DER prefix of every Ed25519 SubjectPublicKeyInfo: SEQUENCE { id-Ed25519 } BIT STRING (32 bytes). */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes Profile A signs; `members` when the caller has canonicalized the manifest already. */
export function signingInput(manifest: Record<string, unknown>, members?: CanonicalMembers): Buffer {
  return Buffer.from(signingInputText(manifest, members), "utf8");
}

const keyCache = new Map<string, KeyObject>();

/** The key object for a standard-base64 Ed25519 SPKI, or `undefined` if it is not one, exactly. */
export function ed25519PublicKey(spkiB64: string): KeyObject | undefined {
  let key = keyCache.get(spkiB64);
  if (key === undefined) {
    if (!STANDARD_BASE64.test(spkiB64)) return undefined;
    const der = Buffer.from(spkiB64, "base64");
    // Re-encoding must give the same text: Node ignores non-zero bits before the padding.
    if (der.length !== 44 || !der.subarray(0, 12).equals(ED25519_SPKI_PREFIX) || der.toString("base64") !== spkiB64) return undefined;
    key = createPublicKey({ key: der, format: "der", type: "spki" });
    keyCache.set(spkiB64, key);
  }
  return key;
}

/** The 32-byte public key inside a key object (the end of its SPKI), kept as long as the key. */
const rawKeys = new WeakMap<KeyObject, Uint8Array>();
function rawPublicKey(key: KeyObject): Uint8Array {
  let raw = rawKeys.get(key);
  if (raw === undefined) rawKeys.set(key, (raw = key.export({ format: "der", type: "spki" }).subarray(ED25519_SPKI_PREFIX.length)));
  return raw;
}

/**
 * Whether `signature` is a valid Ed25519 signature of `message` under a strict verifier
 * (ed25519-strict.ts): "valid", or why not. Never throws.
 */
export function ed25519Verify(key: KeyObject, message: Uint8Array, signature: Uint8Array): "valid" | Ed25519Weakness {
  const weakness = ed25519Weakness(rawPublicKey(key), signature);
  if (weakness !== undefined) return weakness;
  try {
    return verify(null, message, key, signature) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * The content root's `_keys.json` (display path), and its keys by keyRef: the SPKI text,
 * and where it was pinned (for messages). When it exists the world is closed: a keyRef
 * it does not pin, by exact string, is refused, whatever key the manifest embeds.
 */
export interface KeyPins {
  file: string;
  keys: ReadonlyMap<string, { spki: string; place: string }>;
}

/**
 * Problems with the manifest's Profile A signature; none when it verifies. A signature
 * whose shape the schema already rejects (missing, or another profile) is left to the schema.
 *
 * The key: with `pins` (a `_keys.json`), the key pinned for `keyRef`, which an embedded
 * `publicKeySpkiB64` must equal byte for byte (anything else is a key substitution); an
 * unpinned keyRef is refused. Without `pins`, the embedded key (none: unverifiable).
 */
export function verifyProfileA(manifest: Record<string, unknown>, pins: KeyPins | undefined, members?: CanonicalMembers): Problem[] {
  const signature = manifest.signature as Record<string, unknown> | undefined;
  if (typeof signature !== "object" || signature === null) return [];
  if (signature.algorithm !== PROFILE_A.algorithm || signature.canonicalization !== PROFILE_A.canonicalization) return [];

  const problems: Problem[] = [];
  const value = typeof signature.value === "string" ? decodeBase64url(signature.value) : undefined;
  if (value === undefined || value.length !== 64) {
    problems.push({
      pointer: "/signature/value",
      rule: "signature/value-encoding",
      message: "must be the unpadded base64url encoding of a 64-byte Ed25519 signature",
    });
  }
  const keyRef = signature.keyRef;
  const pin = typeof keyRef === "string" ? pins?.keys.get(keyRef) : undefined;
  const embedded = signature.publicKeySpkiB64;
  let key: KeyObject | undefined;
  if (pins !== undefined && pin === undefined) {
    problems.push({ pointer: "/signature/keyRef", rule: "signature/unpinned-key", message: unpinnedMessage(keyRef, pins) });
  } else if (embedded === undefined) {
    if (pin === undefined) {
      problems.push({
        pointer: "/signature",
        rule: "signature/unverifiable",
        message: `no publicKeySpkiB64 is embedded and no _keys.json pins keyRef ${JSON.stringify(keyRef)}, so the signature cannot be verified`,
      });
    } else {
      key = ed25519PublicKey(pin.spki);
    }
  } else if (typeof embedded !== "string" || (key = ed25519PublicKey(embedded)) === undefined) {
    problems.push({
      pointer: "/signature/publicKeySpkiB64",
      rule: "signature/key-encoding",
      message: "must be the standard base64 encoding of a 44-byte Ed25519 SubjectPublicKeyInfo",
    });
  } else if (pin !== undefined && !Buffer.from(embedded, "base64").equals(Buffer.from(pin.spki, "base64"))) {
    key = undefined;
    problems.push({
      pointer: "/signature/publicKeySpkiB64",
      rule: "signature/key-mismatch",
      message: `is not the key pinned for keyRef ${JSON.stringify(keyRef)} at ${pin.place}: the embedded key was substituted`,
    });
  }
  if (problems.length > 0 || key === undefined || value === undefined) return problems;

  const verdict = ed25519Verify(key, signingInput(manifest, members), value);
  if (verdict === "weak-key") {
    problems.push({
      pointer: embedded === undefined ? "/signature/keyRef" : "/signature/publicKeySpkiB64",
      rule: "signature/weak-key",
      message: "is a small-order or non-canonically encoded Ed25519 key, for which signatures verify without any private key: refused",
    });
  } else if (verdict === "invalid") {
    problems.push({
      pointer: "/signature/value",
      rule: "signature/invalid",
      message: "the Ed25519 signature does not verify over the canonical manifest: the content changed after signing, another key signed it, or it is not strictly encoded (small-order R, S not below the group order)",
    });
  }
  return problems;
}

function unpinnedMessage(keyRef: unknown, pins: KeyPins): string {
  const near = typeof keyRef === "string" ? [...pins.keys].find(([pinned]) => pinned.trim().toLowerCase() === keyRef.trim().toLowerCase()) : undefined;
  const hint = near === undefined ? "" : `; ${JSON.stringify(near[0])} is pinned at ${near[1].place}, but keyRefs are compared exactly`;
  return `keyRef ${JSON.stringify(keyRef)} is not pinned in ${pins.file}: when that file exists, every manifest must be signed with a key pinned there${hint}`;
}

/** A Profile A `signature` member for `manifest`, made with an Ed25519 private key. */
export function signProfileA(
  manifest: Record<string, unknown>,
  privateKey: KeyObject,
  keyRef: string,
  created = new Date(),
): Record<string, string> {
  const publicKeySpkiB64 = createPublicKey(privateKey).export({ format: "der", type: "spki" }).toString("base64");
  const value = encodeBase64url(sign(null, signingInput(manifest), privateKey));
  return { ...PROFILE_A, keyRef, created: created.toISOString(), publicKeySpkiB64, value };
}
