/**
 * What a strict Ed25519 verifier refuses before it computes anything (RFC 8032 §5.1.7
 * and the edge cases of "Taming the many EdDSAs", Chalkias et al. 2020). OpenSSL, and so
 * Node's verifier, accepts a small-order public key with a small-order R and S = 0 for
 * every message: a signature that needs no private key. Refused here:
 * - a public key A or a point R of small order (the eight points below, and the two
 *   encodings of x = 0 with the sign bit set), which make the equation hold without
 *   knowledge of a secret;
 * - a non-canonical encoding of A or R (y >= p), which another verifier decodes differently;
 * - S >= L, which malleates a valid signature into another.
 * Points of mixed order stay accepted, as libsodium accepts them. Pure and web-standard,
 * so the build (Node) and the lookup page (a browser) refuse exactly the same signatures.
 */

/** The eight small-order points, canonically encoded, and the two x = 0 points with the sign bit set. */
const SMALL_ORDER: readonly Uint8Array[] = [
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
  "0100000000000000000000000000000000000000000000000000000000000080",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
].map((hex) => Uint8Array.from(hex.match(/../g)!, (byte) => Number.parseInt(byte, 16)));

/** L, the order of the base point, little-endian. */
const L = Uint8Array.from([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);

export type Ed25519Weakness = "weak-key" | "invalid";

/**
 * Why a 32-byte public key and a 64-byte signature must be refused whatever the message:
 * "weak-key" for the key, "invalid" for the signature; undefined when a verifier may decide.
 */
export function ed25519Weakness(publicKey: Uint8Array, signature: Uint8Array): Ed25519Weakness | undefined {
  if (publicKey.length !== 32 || !isStrongPoint(publicKey)) return "weak-key";
  if (signature.length !== 64 || !isStrongPoint(signature.subarray(0, 32)) || !isBelowL(signature.subarray(32)))
    return "invalid";
  return undefined;
}

/** A canonically encoded point not of small order: what a public key (or R) must be. */
export function isStrongPoint(encoding: Uint8Array): boolean {
  return isCanonicalY(encoding) && !SMALL_ORDER.some((point) => sameBytes(point, encoding));
}

/** y, the encoding without its top (sign) bit, is below p = 2^255 - 19. */
function isCanonicalY(encoding: Uint8Array): boolean {
  if ((encoding[31]! & 0x7f) !== 0x7f) return true;
  for (let i = 30; i >= 1; i--) if (encoding[i] !== 0xff) return true;
  return encoding[0]! < 0xed;
}

function isBelowL(s: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) if (s[i] !== L[i]) return s[i]! < L[i]!;
  return false;
}

/** Compared byte by byte, not as hex text: every signature's R is compared, and most differ at once. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}
