/**
 * did:key for Ed25519 (W3C CCG did:key §3.1): `did:key:z…`, the multibase base58btc (`z`)
 * of the multicodec varint 0xed 0x01 (ed25519-pub) and the 32-byte key. The DID's one
 * verification method is `did:key:z…#z…`; a fragment naming anything else names no key
 * of this DID, and is refused rather than read as the DID's key.
 */
import { decodeBase58btc, encodeBase58btc } from "./base58btc.ts";
import type { DidUrl, LocalKey } from "./local-key.ts";

const ED25519_PUB = [0xed, 0x01];
/** The base58btc of 34 bytes is at most 47 characters; the bound keeps decoding cheap. */
const MAX_ENCODED = 47;

export function didKeyEd25519({ id, fragment }: DidUrl): LocalKey {
  const malformed = (reason: string): LocalKey => ({ kind: "malformed", method: "key", reason });
  if (!id.startsWith("z")) return malformed("its key is not multibase base58btc (a leading z)");
  const encoded = id.slice(1);
  if (encoded.length > MAX_ENCODED) return malformed("its key is longer than an Ed25519 key");
  const bytes = decodeBase58btc(encoded);
  if (bytes === undefined) return malformed("its key holds a character outside the base58btc alphabet");
  if (bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1])
    return malformed("its key is not an Ed25519 public key (multicodec 0xed 0x01)");
  if (bytes.length !== 34) return malformed(`its Ed25519 key is ${bytes.length - 2} bytes long, not 32`);
  if (fragment !== undefined && fragment !== id)
    return malformed(`the fragment names ${JSON.stringify(fragment)}, not the DID's own key ${JSON.stringify(id)}`);
  return { kind: "resolved", publicKey: bytes.subarray(2) };
}

/** The did:key of a raw 32-byte Ed25519 public key: `did:key:z6Mk…`. */
export function ed25519DidKey(publicKey: Uint8Array): string {
  return `did:key:${ed25519Multibase(publicKey)}`;
}

/**
 * A raw 32-byte Ed25519 public key as a Multikey's `publicKeyMultibase` (W3C Controlled
 * Identifiers, Multikey): `z6Mk…`, the method-specific id of its did:key.
 */
export function ed25519Multibase(publicKey: Uint8Array): string {
  return `z${encodeBase58btc(Uint8Array.from([...ED25519_PUB, ...publicKey]))}`;
}
