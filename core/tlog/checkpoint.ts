/**
 * Checkpoints (C2SP tlog-checkpoint): the signed note a log publishes for each tree size.
 * Its text is the origin line, the tree size in decimal with no leading zero, the base64
 * root hash, and optional non-empty extension lines. Parsing refuses anything else.
 */
import { decodeBase64, encodeBase64 } from "../base64url.ts";
import { HASH_SIZE, type Hash } from "./merkle.ts";
import { isNoteText } from "./note.ts";
import type { NoteKey } from "./note-keys.ts";
import { type NoteSigner, openNote, signNote } from "./note-signature.ts";

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Hash;
  /** Opaque lines after the root hash; none is usual. */
  extensions: string[];
}

export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  const text = [origin, String(size), encodeBase64(rootHash), ...extensions].map((line) => `${line}\n`).join("");
  if (parseCheckpoint(text) === undefined) throw new RangeError("not a checkpoint the format allows");
  return text;
}

/** The checkpoint a note's text holds, or undefined when it is not one, exactly. */
export function parseCheckpoint(text: string): Checkpoint | undefined {
  if (!isNoteText(text)) return undefined;
  const [origin, sizeText, rootText, ...extensions] = text.slice(0, -1).split("\n");
  if (!origin || rootText === undefined || extensions.some((line) => line === "")) return undefined;
  if (!/^(?:0|[1-9][0-9]*)$/.test(sizeText!) || !Number.isSafeInteger(Number(sizeText))) return undefined;
  const rootHash = decodeBase64(rootText);
  if (rootHash?.length !== HASH_SIZE) return undefined;
  return { origin, size: Number(sizeText), rootHash, extensions };
}

export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): Promise<string> {
  return signNote(formatCheckpoint(checkpoint), [signer]);
}

export type OpenedCheckpoint =
  | { ok: true; checkpoint: Checkpoint }
  | { ok: false; reason: "malformed" | "no-known-signature" | "bad-signature" | "not-a-checkpoint" | "wrong-origin" };

/**
 * The checkpoint in a signed note, once `key` (the log's) has verified it and its origin
 * is `origin`: a log's checkpoint names that log, and a client must not take another
 * log's, however well signed, for it.
 */
export async function openCheckpoint(
  note: Uint8Array | string,
  key: NoteKey,
  origin: string,
): Promise<OpenedCheckpoint> {
  const opened = await openNote(note, [key]);
  if (!opened.ok) return opened;
  const checkpoint = parseCheckpoint(opened.note.text);
  if (checkpoint === undefined) return { ok: false, reason: "not-a-checkpoint" };
  return checkpoint.origin === origin ? { ok: true, checkpoint } : { ok: false, reason: "wrong-origin" };
}
