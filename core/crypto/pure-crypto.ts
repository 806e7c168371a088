/**
 * Ed25519 verification and SHA-256 in pure JS (@noble/curves, @noble/hashes: audited, no
 * dependencies), for a runtime whose WebCrypto lacks them. Loaded by runtime-crypto.ts
 * only there, by a dynamic import: its own chunk of the library and of the lookup page.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToNumberLE, concatBytes } from "@noble/curves/utils.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import type { Ed25519Verdict } from "./profile-a.ts";

const { Point } = ed25519;

/**
 * RFC 8032 §5.1.7 with points decoded strictly (no ZIP 215), after runtime-crypto.ts's own
 * strict checks, and the cofactorless equation [S]B = R + [k]A: the one OpenSSL, BoringSSL
 * and so WebCrypto's verifiers check, where noble's `verify` checks the cofactored one and
 * would accept the signatures of mixed-order points that they refuse (speccheck cases 4
 * and 5). tests/unit/vectors.test.ts holds the two verifiers to the same verdicts.
 */
export async function pureEd25519Verify(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<Ed25519Verdict> {
  try {
    const a = Point.fromBytes(publicKey, false);
    const r = Point.fromBytes(signature.subarray(0, 32), false);
    const s = bytesToNumberLE(signature.subarray(32));
    const k = Point.Fn.create(bytesToNumberLE(sha512(concatBytes(signature.subarray(0, 32), publicKey, message))));
    return Point.BASE.multiplyUnsafe(s).equals(r.add(a.multiplyUnsafe(k))) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

export async function pureSha256(data: Uint8Array): Promise<Uint8Array> {
  return sha256(data);
}
