/**
 * The messages of C2SP tlog-witness's `add-checkpoint`, both ways: the request body (an
 * `old <size>` line, up to 63 base64 consistency-proof hashes, an empty line, then the
 * signed checkpoint), the 409's body (`text/x.tlog.size`: the size the witness last
 * cosigned, and a newline), and the 200's (note signature lines). A body that breaks the
 * format is refused whole: the witness answers 400 to it.
 */
import { decodeBase64, decodeUtf8, encodeBase64 } from "../base64url.ts";
import { HASH_SIZE, type Hash } from "./merkle.ts";
import { type NoteSignature, parseNote } from "./note.ts";

/** The most consistency-proof lines a request may carry. */
export const MAX_PROOF_LINES = 63;

/** The media type of a 409's body. */
export const SIZE_MEDIA_TYPE = "text/x.tlog.size";

export interface AddCheckpoint {
  oldSize: number;
  proof: Hash[];
  /** The signed checkpoint, as sent. */
  checkpoint: string;
}

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

export function formatAddCheckpoint(request: AddCheckpoint): string {
  return `old ${request.oldSize}\n${request.proof.map((hash) => `${encodeBase64(hash)}\n`).join("")}\n${request.checkpoint}`;
}

/** The request in `body`, or why it is not one. */
export function parseAddCheckpoint(body: Uint8Array): AddCheckpoint | { fault: string } {
  const text = decodeUtf8(body);
  if (text === undefined) return { fault: "the body is not UTF-8" };
  const end = text.indexOf("\n\n");
  if (end < 0) return { fault: "no empty line before the checkpoint" };
  const [oldLine, ...proofLines] = text.slice(0, end).split("\n");
  const oldSize = /^old (.*)$/.exec(oldLine!)?.[1];
  if (oldSize === undefined || !DECIMAL.test(oldSize) || !Number.isSafeInteger(Number(oldSize)))
    return { fault: "the first line is not old <size>, a decimal with no leading zero" };
  if (proofLines.length > MAX_PROOF_LINES) return { fault: `more than ${MAX_PROOF_LINES} consistency proof lines` };
  const proof: Hash[] = [];
  for (const [i, line] of proofLines.entries()) {
    const hash = decodeBase64(line);
    if (hash?.length !== HASH_SIZE) return { fault: `proof line ${i + 1} is not a base64 SHA-256 hash` };
    proof.push(hash);
  }
  return { oldSize: Number(oldSize), proof, checkpoint: text.slice(end + 2) };
}

/** The size a 409 names, or undefined when its body is not one. */
export function parseSizeBody(body: string): number | undefined {
  const match = /^(0|[1-9][0-9]*)\n$/.exec(body);
  return match && Number.isSafeInteger(Number(match[1])) ? Number(match[1]) : undefined;
}

/** The signature lines of a 200's body, or undefined when it is not one or more of them. */
export function parseCosignatureLines(body: string): NoteSignature[] | undefined {
  // A note whose text is one line: its signatures are the lines given. A note's text ends at its last empty line, so
  // a body with an empty line between its lines would otherwise lose those before it: the text must stay that line.
  const note = parseNote(`x\n\n${body}`);
  return note?.text === "x\n" ? note.signatures : undefined;
}
