/**
 * Ed25519 keys for signed notes, in the text forms Go's sumdb/note and every C2SP tool
 * read: the verifier key `<name>+<hex key ID>+base64(0x01 || public key)` a client is
 * configured with, and the signer key `PRIVATE+KEY+<name>+<hex key ID>+base64(0x01 ||
 * seed)`. The key ID is SHA-256(name || 0x0A || 0x01 || public key)[:4], and a key whose
 * ID does not match it is refused, as Go refuses it. A witness's cosigner key is the same
 * with the type byte 0x04 (C2SP tlog-cosignature): one public key, another key ID.
 */
import { decodeBase64, encodeBase64, utf8 } from "../base64url.ts";
import { isKeyName } from "./note.ts";
import { sha256 } from "@noble/hashes/sha2.js";

/** The signature type byte of Ed25519 in signed notes. */
export const ED25519_TYPE = 0x01;

/** The signature type byte of an Ed25519 cosignature (C2SP tlog-cosignature): a timestamp, then the signature. */
export const COSIGNATURE_TYPE = 0x04;

/** A signature type this code signs and verifies with. */
export type NoteKeyType = typeof ED25519_TYPE | typeof COSIGNATURE_TYPE;

export interface NoteKey {
  name: string;
  keyId: number;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/** What a signer key string holds. */
export interface NoteSeed {
  name: string;
  keyId: number;
  /** The 32-byte Ed25519 seed (RFC 8032's private key). */
  seed: Uint8Array;
}

export function ed25519KeyId(name: string, publicKey: Uint8Array, type: NoteKeyType = ED25519_TYPE): number {
  const nameBytes = utf8(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input.set([0x0a, type], nameBytes.length);
  input.set(publicKey, nameBytes.length + 2);
  return new DataView(sha256(input).buffer).getUint32(0);
}

export function formatVerifierKey(name: string, publicKey: Uint8Array, type: NoteKeyType = ED25519_TYPE): string {
  return `${name}+${hexKeyId(ed25519KeyId(name, publicKey, type))}+${encodeBase64(typed(publicKey, type))}`;
}

/** The key a verifier key string names, or undefined when it is not one of `type` (Ed25519's), exactly. */
export function parseVerifierKey(vkey: string, type: NoteKeyType = ED25519_TYPE): NoteKey | undefined {
  const parts = keyParts(vkey, type);
  return parts && parts.keyId === ed25519KeyId(parts.name, parts.key, type)
    ? { name: parts.name, keyId: parts.keyId, publicKey: parts.key }
    : undefined;
}

/** The signature type byte of a verifier key string, whatever the type; undefined when it is not one. */
export function verifierKeyType(vkey: string): number | undefined {
  const match = /^[^+]+\+[0-9a-f]{8}\+(.*)$/s.exec(vkey);
  return match ? decodeBase64(match[1]!)?.[0] : undefined;
}

/**
 * The seed a signer key string holds, with its name and ID; the public key and the check
 * of the ID need Ed25519 arithmetic, so they are note-signature.ts's (ed25519Signer).
 */
export function parseSignerKey(skey: string): NoteSeed | undefined {
  const parts = skey.startsWith("PRIVATE+KEY+") ? keyParts(skey.slice("PRIVATE+KEY+".length)) : undefined;
  return parts && { name: parts.name, keyId: parts.keyId, seed: parts.key };
}

export function formatSignerKey(key: NoteSeed): string {
  return `PRIVATE+KEY+${key.name}+${hexKeyId(key.keyId)}+${encodeBase64(typed(key.seed))}`;
}

/**
 * Name, key ID and 32 bytes of key from `<name>+<hex ID>+base64(0x01 || key)`. The name
 * holds no plus; base64 may, so the key is all that follows the second.
 */
function keyParts(
  text: string,
  type: NoteKeyType = ED25519_TYPE,
): { name: string; keyId: number; key: Uint8Array } | undefined {
  const match = /^([^+]+)\+([0-9a-f]{8})\+(.*)$/s.exec(text);
  if (match === null || !isKeyName(match[1]!)) return undefined;
  const bytes = decodeBase64(match[3]!);
  if (bytes?.length !== 33 || bytes[0] !== type) return undefined;
  return { name: match[1]!, keyId: Number.parseInt(match[2]!, 16), key: bytes.subarray(1) };
}

const hexKeyId = (keyId: number) => keyId.toString(16).padStart(8, "0");

/** type || key: how both key strings write their key material. */
function typed(key: Uint8Array, type: NoteKeyType = ED25519_TYPE): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes[0] = type;
  bytes.set(key, 1);
  return bytes;
}
