/**
 * The signed-note format (C2SP signed-note): a text ending in a newline, a blank line, and
 * one or more lines `— <key name> base64(key ID || signature)`. Parsing is strict: valid
 * UTF-8, no control character but the newline, a key name with no space or plus, canonical
 * base64. What the text says counts only once a trusted key's signature verifies
 * (note-signature.ts).
 */
import { decodeBase64, decodeUtf8, encodeBase64 } from "../base64url.ts";

export interface NoteSignature {
  keyName: string;
  /** The uint32 the signature starts with, big-endian. */
  keyId: number;
  /** The signature proper, after the key ID. */
  signature: Uint8Array;
}

export interface Note {
  /** The signed text, with its final newline. */
  text: string;
  signatures: NoteSignature[];
}

/** Beyond the 16 a verifier must accept, with room for witnesses. */
const MAX_SIGNATURES = 100;

const SIGNATURE_LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/=]+)$/u;
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/;

/** The note in `bytes`, or undefined when they are not one. */
export function parseNote(bytes: Uint8Array | string): Note | undefined {
  const note = typeof bytes === "string" ? bytes : decodeUtf8(bytes);
  if (note === undefined || !isNoteText(note)) return undefined;
  const split = note.lastIndexOf("\n\n");
  if (split < 0) return undefined;
  const lines = note.slice(split + 2, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) return undefined;
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const match = SIGNATURE_LINE.exec(line);
    const bytes = match && decodeBase64(match[2]!);
    if (!match || !bytes || bytes.length < 5) return undefined;
    const keyId = new DataView(bytes.buffer).getUint32(0);
    signatures.push({ keyName: match[1]!, keyId, signature: bytes.subarray(4) });
  }
  return { text: note.slice(0, split + 1), signatures };
}

export function formatNote(note: Note): string {
  const lines = note.signatures.map(({ keyName, keyId, signature }) => {
    const bytes = new Uint8Array(4 + signature.length);
    new DataView(bytes.buffer).setUint32(0, keyId);
    bytes.set(signature, 4);
    return `\u2014 ${keyName} ${encodeBase64(bytes)}\n`;
  });
  return `${note.text}\n${lines.join("")}`;
}

/** A key name the format allows: non-empty, with no Unicode space and no plus. */
export function isKeyName(name: string): boolean {
  return /^[^\s+]+$/u.test(name) && !CONTROL.test(name);
}

/** Text a note may sign or carry: ending in a newline, with no control character but the newline. */
export function isNoteText(text: string): boolean {
  return text.endsWith("\n") && !CONTROL.test(text);
}
