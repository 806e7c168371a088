/**
 * DIDs that are their keys, made at test time: did:key (base58btc by the standard's
 * BigInt arithmetic, independent of core/did's decoder) and did:jwk.
 */
import { createPublicKey, type KeyObject } from "node:crypto";

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function encodeBase58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = BigInt(`0x0${Buffer.from(bytes).toString("hex")}`);
  let out = "";
  for (; n > 0n; n /= 58n) out = ALPHABET[Number(n % 58n)] + out;
  return "1".repeat(zeros) + out;
}

/** `did:key:z…` of a raw key under a multicodec prefix (ed25519-pub by default). */
export const didKeyOf = (publicKey: Uint8Array, codec = [0xed, 0x01]) =>
  `did:key:z${encodeBase58btc(Uint8Array.from([...codec, ...publicKey]))}`;

export const didJwkOf = (jwk: unknown) => `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString("base64url")}`;

export function rawPublicKey(key: KeyObject): Uint8Array {
  return createPublicKey(key).export({ format: "der", type: "spki" }).subarray(12);
}

/** The did:key URL of `key`'s one verification method: `did:key:z6Mk…#z6Mk…`. */
export function didKeyRef(key: KeyObject): string {
  const did = didKeyOf(rawPublicKey(key));
  return `${did}#${did.slice("did:key:".length)}`;
}

/** A DID document that lists `key` as `<did>#key-1`, a Multikey under assertionMethod; `extra` replaces members. */
export function didDocumentOf(
  did: string,
  key: KeyObject,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const id = `${did}#key-1`;
  const publicKeyMultibase = didKeyOf(rawPublicKey(key)).slice("did:key:".length);
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: did,
    verificationMethod: [{ id, type: "Multikey", controller: did, publicKeyMultibase }],
    assertionMethod: [id],
    ...extra,
  };
}
