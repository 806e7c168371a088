/**
 * The ways a DID names an Ed25519 public key, decoded to its 32 raw bytes: a multibase
 * multikey (`z` + base58btc of multicodec 0xed 0x01 and the key: did:key, `Multikey`,
 * `Ed25519VerificationKey2020`), a bare base58btc key (`Ed25519VerificationKey2018`'s
 * `publicKeyBase58`) and an OKP JWK (RFC 8037: did:jwk, `JsonWebKey`,
 * `JsonWebKey2020`). Each gives the key, or why the value is none, in words that finish
 * "its key …" or "its JWK …".
 */
import { decodeBase64url } from "../base64url.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { decodeBase58btc } from "./base58btc.ts";

export const ED25519_PUB_CODEC = [0xed, 0x01];
/** The base58btc of 34 bytes is at most 47 characters; the bound keeps decoding cheap. */
const MAX_BASE58_MULTIKEY = 47;
/** …and of 32 bytes, at most 44. */
const MAX_BASE58_KEY = 44;

export type Ed25519Key = { publicKey: Uint8Array } | { fault: string };

/** A multibase base58btc multikey: `z6Mk…`. */
export function ed25519FromMultikey(value: unknown): Ed25519Key {
  if (typeof value !== "string" || !value.startsWith("z")) return { fault: "is not multibase base58btc (a leading z)" };
  const encoded = value.slice(1);
  if (encoded.length > MAX_BASE58_MULTIKEY) return { fault: "is longer than an Ed25519 key" };
  const bytes = decodeBase58btc(encoded);
  if (bytes === undefined) return { fault: "holds a character outside the base58btc alphabet" };
  if (bytes[0] !== ED25519_PUB_CODEC[0] || bytes[1] !== ED25519_PUB_CODEC[1])
    return { fault: "is not an Ed25519 public key (multicodec 0xed 0x01)" };
  if (bytes.length !== 34) return { fault: `is an Ed25519 key ${bytes.length - 2} bytes long, not 32` };
  return { publicKey: bytes.subarray(2) };
}

/** A bare base58btc key, no multibase prefix nor multicodec: Ed25519VerificationKey2018. */
export function ed25519FromBase58(value: unknown): Ed25519Key {
  if (typeof value !== "string" || value.length > MAX_BASE58_KEY) return { fault: "is not the base58 of 32 bytes" };
  const bytes = decodeBase58btc(value);
  return bytes === undefined || bytes.length !== 32 ? { fault: "is not the base58 of 32 bytes" } : { publicKey: bytes };
}

/** An OKP Ed25519 public JWK (RFC 8037 §2); one that carries the private `d` is refused. */
export function ed25519FromJwk(jwk: unknown): Ed25519Key {
  if (!isJsonObject(jwk)) return { fault: "is not a JSON object" };
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") return { fault: 'is not "kty": "OKP", "crv": "Ed25519"' };
  if (Object.hasOwn(jwk, "d")) return { fault: 'carries a private key ("d")' };
  const publicKey = typeof jwk.x === "string" ? decodeBase64url(jwk.x) : undefined;
  if (publicKey === undefined || publicKey.length !== 32)
    return { fault: 'has an "x" that is not the unpadded base64url of 32 bytes' };
  return { publicKey };
}
