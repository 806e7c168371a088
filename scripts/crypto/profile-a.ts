/**
 * Signature Profile A in Node: signing, and verification with Node's native Ed25519 (an
 * order of magnitude faster than JS, and than WebCrypto's promise per signature) once
 * core/crypto/profile-a.ts has decided everything else. Strict: ed25519-strict.ts refuses
 * weak keys and malleable signatures first. Key objects are cached by their SPKI text:
 * building one costs as much as a verification.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { encodeBase64url } from "../../core/base64url.ts";
import { ed25519Weakness } from "../../core/crypto/ed25519-strict.ts";
import type { CanonicalMembers } from "../../core/crypto/jcs.ts";
import {
  prepareProfileA,
  spkiPublicKey,
  verdictProblems,
  type Ed25519Verdict,
  type KeyPins,
} from "../../core/crypto/profile-a.ts";
import { PROFILE_A, signingInputText } from "../../core/crypto/signing-input.ts";
import type { Problem } from "../../core/validate/problem.ts";

/** The bytes Profile A signs; `members` when the caller has canonicalized the manifest already. */
export function signingInput(manifest: Record<string, unknown>, members?: CanonicalMembers): Buffer {
  return Buffer.from(signingInputText(manifest, members), "utf8");
}

const keyCache = new Map<string, KeyObject>();
/** The 32-byte public key inside each cached key object. */
const rawKeys = new WeakMap<KeyObject, Uint8Array>();

/** The key object for a standard-base64 Ed25519 SPKI, or `undefined` if it is not one, exactly. */
export function ed25519PublicKey(spkiB64: string): KeyObject | undefined {
  let key = keyCache.get(spkiB64);
  if (key === undefined) {
    const raw = spkiPublicKey(spkiB64);
    if (raw === undefined) return undefined;
    key = createPublicKey({ key: Buffer.from(spkiB64, "base64"), format: "der", type: "spki" });
    keyCache.set(spkiB64, key);
    rawKeys.set(key, raw);
  }
  return key;
}

/**
 * Whether `signature` is a valid Ed25519 signature of `message` under a strict verifier
 * (ed25519-strict.ts): "valid", or why not. Never throws.
 */
export function ed25519Verify(key: KeyObject, message: Uint8Array, signature: Uint8Array): Ed25519Verdict {
  const weakness = ed25519Weakness(rawKeys.get(key)!, signature);
  if (weakness !== undefined) return weakness;
  try {
    return verify(null, message, key, signature) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * Problems with the manifest's Profile A signature (core/crypto/profile-a.ts decides
 * everything but the arithmetic, done here natively); none when it verifies.
 */
export function verifyProfileA(
  manifest: Record<string, unknown>,
  pins: KeyPins | undefined,
  members?: CanonicalMembers,
): Problem[] {
  const { problems, pending } = prepareProfileA(manifest, pins, members);
  if (pending === undefined) return problems;
  return verdictProblems(ed25519Verify(ed25519PublicKey(pending.spki)!, pending.message, pending.signature), pending);
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

/** The Ed25519 private key in the PEM file at `path`, or why it cannot be used (for a `manifest-resolver:` line). */
export async function loadPrivateKey(path: string): Promise<KeyObject | string> {
  let pem: Buffer;
  try {
    pem = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `cannot read the key ${path}: ${code === "ENOENT" ? "file not found" : (error as Error).message}`;
  }
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === "ed25519"
      ? key
      : `${path} is a ${key.asymmetricKeyType} key; Profile A needs Ed25519`;
  } catch {
    return `${path} is not a PEM private key`;
  }
}
