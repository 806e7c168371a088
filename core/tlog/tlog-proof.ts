/**
 * Transparency log proofs (C2SP tlog-proof): an entry's place in a log, provable offline.
 * The text is `c2sp.org/tlog-proof@v1`, an optional `extra <base64>` line (data the
 * verifier needs but must not trust: it is checked against what is signed), `index <n>`,
 * the inclusion proof's hashes from the leaf's sibling up, one per line, an empty line,
 * and the signed checkpoint, cosignatures and all, verbatim.
 */
import { decodeBase64, encodeBase64 } from "../base64url.ts";
import { HASH_SIZE, type Hash } from "./merkle.ts";

export const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";

export interface TlogProof {
  extra?: Uint8Array;
  index: number;
  proof: Hash[];
  /** The signed checkpoint note. */
  checkpoint: string;
}

export function formatTlogProof(tlogProof: TlogProof): string {
  const { extra, index, proof, checkpoint } = tlogProof;
  const lines = [
    TLOG_PROOF_HEADER,
    ...(extra === undefined ? [] : [`extra ${encodeBase64(extra)}`]),
    `index ${index}`,
    ...proof.map(encodeBase64),
  ];
  return `${lines.join("\n")}\n\n${checkpoint}`;
}

/** The proof in `text`, or why it is not one. */
export function parseTlogProof(text: string): TlogProof | { fault: string } {
  const end = text.indexOf("\n\n");
  if (end < 0) return { fault: "no empty line before the checkpoint" };
  const lines = text.slice(0, end).split("\n");
  if (lines.shift() !== TLOG_PROOF_HEADER) return { fault: `the first line is not ${TLOG_PROOF_HEADER}` };
  let extra: Uint8Array | undefined;
  if (lines[0]?.startsWith("extra ")) {
    extra = decodeBase64(lines.shift()!.slice("extra ".length));
    if (extra === undefined) return { fault: "the extra line is not base64" };
  }
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines.shift() ?? "")?.[1];
  if (index === undefined || !Number.isSafeInteger(Number(index)))
    return { fault: "no index line: index <n>, a decimal with no leading zero" };
  const proof: Hash[] = [];
  for (const [i, line] of lines.entries()) {
    const hash = decodeBase64(line);
    if (hash?.length !== HASH_SIZE) return { fault: `inclusion proof line ${i + 1} is not a base64 SHA-256 hash` };
    proof.push(hash);
  }
  return { ...(extra && { extra }), index: Number(index), proof, checkpoint: text.slice(end + 2) };
}
