/**
 * did:key for Ed25519 (W3C CCG did:key §3.1): `did:key:z…`, the multibase base58btc (`z`)
 * of the multicodec varint 0xed 0x01 (ed25519-pub) and the 32-byte key. The DID's one
 * verification method is `did:key:z…#z…`; a fragment naming anything else names no key
 * of this DID, and is refused rather than read as the DID's key.
 */
import { encodeBase58btc } from "./base58btc.ts";
import { ED25519_PUB_CODEC, ed25519FromMultikey } from "./ed25519-key-formats.ts";
import type { DidUrl, LocalKey } from "./local-key.ts";

export function didKeyEd25519({ id, fragment }: DidUrl): LocalKey {
  const key = ed25519FromMultikey(id);
  if ("fault" in key) return { kind: "malformed", method: "key", reason: `its key ${key.fault}` };
  if (fragment !== undefined && fragment !== id)
    return {
      kind: "malformed",
      method: "key",
      reason: `the fragment names ${JSON.stringify(fragment)}, not the DID's own key ${JSON.stringify(id)}`,
    };
  return { kind: "resolved", publicKey: key.publicKey };
}

/**
 * A raw 32-byte Ed25519 public key as a Multikey's `publicKeyMultibase` (W3C Controlled
 * Identifiers, Multikey): `z6Mk…`, the method-specific id of its did:key.
 */
export function ed25519Multibase(publicKey: Uint8Array): string {
  return `z${encodeBase58btc(Uint8Array.from([...ED25519_PUB_CODEC, ...publicKey]))}`;
}

/** The did:key of a raw 32-byte Ed25519 public key: `did:key:z6Mk…`. */
export function ed25519DidKey(publicKey: Uint8Array): string {
  return `did:key:${ed25519Multibase(publicKey)}`;
}
