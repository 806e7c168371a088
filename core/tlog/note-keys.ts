/**
 * Ed25519 keys for signed notes, in the text forms Go's sumdb/note and every C2SP tool
 * read: the verifier key `<name>+<hex key ID>+base64(0x01 || public key)` a client is
 * configured with, and the signer key `PRIVATE+KEY+<name>+<hex key ID>+base64(0x01 ||
 * seed)`. The key ID is SHA-256(name || 0x0A || 0x01 || public key)[:4], and a key whose
 * ID does not match it is refused, as Go refuses it.
 */
import { decodeBase64, encodeBase64, utf8 } from "../base64url.ts";
import { isKeyName } from "./note.ts";
import { sha256 } from "@noble/hashes/sha2.js";

/** The signature type byte of Ed25519 in signed notes. */
const ED25519_TYPE = 0x01;

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

export function ed25519KeyId(name: string, publicKey: Uint8Array): number {
  const nameBytes = utf8(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input.set([0x0a, ED25519_TYPE], nameBytes.length);
  input.set(publicKey, nameBytes.length + 2);
  return new DataView(sha256(input).buffer).getUint32(0);
}

export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  return `${name}+${hexKeyId(ed25519KeyId(name, publicKey))}+${encodeBase64(typed(publicKey))}`;
}

/** The key a verifier key string names, or undefined when it is not an Ed25519 one, exactly. */
export function parseVerifierKey(vkey: string): NoteKey | undefined {
  const parts = keyParts(vkey);
  return parts && parts.keyId === ed25519KeyId(parts.name, parts.key) ? { ...parts, publicKey: parts.key } : undefined;
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
function keyParts(text: string): { name: string; keyId: number; key: Uint8Array } | undefined {
  const match = /^([^+]+)\+([0-9a-f]{8})\+(.*)$/s.exec(text);
  if (match === null || !isKeyName(match[1]!)) return undefined;
  const bytes = decodeBase64(match[3]!);
  if (bytes?.length !== 33 || bytes[0] !== ED25519_TYPE) return undefined;
  return { name: match[1]!, keyId: Number.parseInt(match[2]!, 16), key: bytes.subarray(1) };
}

const hexKeyId = (keyId: number) => keyId.toString(16).padStart(8, "0");

/** 0x01 || key: how both key strings write their key material. */
function typed(key: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes[0] = ED25519_TYPE;
  bytes.set(key, 1);
  return bytes;
}
