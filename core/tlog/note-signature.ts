/**
 * Signing and verifying signed notes with Ed25519, over the note text (C2SP signed-note).
 * Verification follows the spec's rules: signatures by keys the verifier does not know
 * (by name and ID together) are ignored, a known key's failing signature rejects the whole
 * note, and a note with no verified signature is rejected. It uses the strict verifier
 * (core/crypto), so every runtime refuses the same signatures. Signing uses WebCrypto's
 * Ed25519, which is deterministic: the same key and text give the same note.
 */
import { decodeBase64url, utf8 } from "../base64url.ts";
import { verifyEd25519 } from "../crypto/runtime-crypto.ts";
import { formatNote, isNoteText, type Note, type NoteSignature, parseNote } from "./note.ts";
import { ED25519_TYPE, ed25519KeyId, type NoteKey, type NoteKeyType, type NoteSeed } from "./note-keys.ts";

export interface NoteSigner extends NoteKey {
  sign(text: Uint8Array): Promise<Uint8Array>;
}

/** PKCS #8 for an Ed25519 seed: SEQUENCE { version 0, id-Ed25519, OCTET STRING { OCTET STRING seed } }. */
const PKCS8_PREFIX = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/**
 * A signer for the key named `name` with this 32-byte seed; undefined when `keyId` is
 * given and is not that key's ID (a signer key string that contradicts itself). `type`:
 * the signature type its key ID commits to (a witness's cosigner key: COSIGNATURE_TYPE).
 */
export async function ed25519Signer(
  key: Omit<NoteSeed, "keyId"> & { keyId?: number },
  type: NoteKeyType = ED25519_TYPE,
): Promise<NoteSigner | undefined> {
  const pkcs8 = Uint8Array.from([...PKCS8_PREFIX, ...key.seed]);
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
  // The private key's JWK carries its public key, x, which WebCrypto offers no other way to derive.
  const { x } = await crypto.subtle.exportKey("jwk", privateKey);
  const publicKey = decodeBase64url(x!)!;
  const keyId = ed25519KeyId(key.name, publicKey, type);
  if (key.keyId !== undefined && key.keyId !== keyId) return undefined;
  const sign = async (text: Uint8Array) =>
    new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, new Uint8Array(text)));
  return { name: key.name, keyId, publicKey, sign };
}

/** The signed note of `text` (which must end in a newline), signed by each of `signers` (one at least). */
export async function signNote(text: string, signers: readonly NoteSigner[]): Promise<string> {
  if (!isNoteText(text)) throw new RangeError("a note's text must end in a newline and hold no control characters");
  if (signers.length === 0) throw new RangeError("a note needs a signature");
  const message = utf8(text);
  const signatures: NoteSignature[] = [];
  for (const { name, keyId, sign } of signers)
    signatures.push({ keyName: name, keyId, signature: await sign(message) });
  return formatNote({ text, signatures });
}

export type OpenedNote =
  | { ok: true; note: Note; verifiedBy: NoteKey[] }
  | { ok: false; reason: "malformed" | "no-known-signature" | "bad-signature" };

/** The note in `bytes` if a signature by one of `keys` verifies and none by them fails. */
export async function openNote(bytes: Uint8Array | string, keys: readonly NoteKey[]): Promise<OpenedNote> {
  const note = parseNote(bytes);
  if (note === undefined) return { ok: false, reason: "malformed" };
  const message = utf8(note.text);
  const verifiedBy: NoteKey[] = [];
  for (const { keyName, keyId, signature } of note.signatures) {
    const key = keys.find((known) => known.name === keyName && known.keyId === keyId);
    if (key === undefined) continue;
    if ((await verifyEd25519(key.publicKey, message, signature)) !== "valid")
      return { ok: false, reason: "bad-signature" };
    verifiedBy.push(key);
  }
  return verifiedBy.length > 0 ? { ok: true, note, verifiedBy } : { ok: false, reason: "no-known-signature" };
}
