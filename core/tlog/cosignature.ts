/**
 * Witness cosignatures (C2SP tlog-cosignature, the Ed25519 type): a note signature on a
 * checkpoint by a cosigner key (type byte 0x04, so its key ID is not the same key's as a
 * log), whose bytes are a big-endian u64 POSIX timestamp and an Ed25519 signature over
 * `cosignature/v1\ntime <timestamp>\n` and the checkpoint's whole note text. It states
 * that, as of that time, this is the largest checkpoint of the log the witness verified
 * consistent. Verification is signed-note's: lines of keys not given are ignored, and a
 * given key's line that does not verify fails the whole note.
 */
import { utf8 } from "../base64url.ts";
import { verifyEd25519 } from "../crypto/runtime-crypto.ts";
import type { Note, NoteSignature } from "./note.ts";
import type { NoteKey } from "./note-keys.ts";
import type { NoteSigner } from "./note-signature.ts";

/** The timestamp's 8 bytes and the signature's 64. */
const COSIGNATURE_SIZE = 8 + 64;

/** The message a cosignature signs: the header, the time line, then the checkpoint's note text. */
export function cosignedMessage(timestamp: number, checkpointText: string): Uint8Array {
  return utf8(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/** The cosignature of `checkpointText` (a checkpoint note's text) by `signer`, a cosigner key, at `timestamp` seconds. */
export async function cosign(checkpointText: string, signer: NoteSigner, timestamp: number): Promise<NoteSignature> {
  if (!(Number.isSafeInteger(timestamp) && timestamp > 0)) throw new RangeError(`no cosignature at time ${timestamp}`);
  const signature = await signer.sign(cosignedMessage(timestamp, checkpointText));
  const bytes = new Uint8Array(COSIGNATURE_SIZE);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(timestamp));
  bytes.set(signature, 8);
  return { keyName: signer.name, keyId: signer.keyId, signature: bytes };
}

/** A cosigner's verified cosignature, with its time in seconds. */
export interface Cosigned {
  key: NoteKey;
  timestamp: number;
}

export type OpenedCosignatures =
  | { ok: true; cosigned: Cosigned[] }
  /** `cosigner`'s line is there but is no cosignature of this note. */
  | { ok: false; cosigner: NoteKey };

/**
 * The cosignatures on `note` by `cosigners` (cosigner keys) that verify, with their times; fails on the first line of
 * one of them that does not. A timestamp past 2^53 is refused as not verifying: no real clock reads it.
 */
export async function openCosignatures(note: Note, cosigners: readonly NoteKey[]): Promise<OpenedCosignatures> {
  const cosigned: Cosigned[] = [];
  for (const { keyName, keyId, signature } of note.signatures) {
    const key = cosigners.find((known) => known.name === keyName && known.keyId === keyId);
    if (key === undefined) continue;
    const timestamp = signature.length === COSIGNATURE_SIZE ? timestampOf(signature) : undefined;
    const valid =
      timestamp !== undefined &&
      (await verifyEd25519(key.publicKey, cosignedMessage(timestamp, note.text), signature.subarray(8))) === "valid";
    if (!valid) return { ok: false, cosigner: key };
    if (!cosigned.some((earlier) => earlier.key === key)) cosigned.push({ key, timestamp });
  }
  return { ok: true, cosigned };
}

function timestampOf(signature: Uint8Array): number | undefined {
  const timestamp = new DataView(signature.buffer, signature.byteOffset, 8).getBigUint64(0);
  // The format allows up to 2^63 - 1; past 2^53 is no real clock's reading, and a number could not hold it.
  return timestamp <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(timestamp) : undefined;
}
