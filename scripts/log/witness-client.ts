/**
 * `log` asking one witness to cosign the log's checkpoint (C2SP tlog-witness, add-checkpoint; issue 41). The
 * request carries the size the witness last cosigned and a consistency proof from it, made from the local tiles; when
 * the log does not know that size (a first run, a checkpoint written by a killed run), the witness's 409 says it, and
 * the request is made once more from there. What the witness answers is judged, never trusted:
 * - `cosigned`: a 200 whose lines hold a cosignature by the witness's key (the policy's) that verifies.
 * - `refused`: any other answer the witness gave: a second 409, or one for a size past the log's (the witness holds a
 *   tree the local log lacks), a 422 (the proof does not hold: a fork), 403, 404, 400, or a 200 without a valid
 *   cosignature. A refusal is a fact about the log or the configuration: `log` fails on it.
 * - `unreachable`: no answer (connection refused, timeout) or a 5xx: the witness is down, and the quorum decides.
 */
import { decodeUtf8 } from "../../core/base64url.ts";
import { CLOCK_SKEW } from "../../core/tlog/witnessed-checkpoint.ts";
import { excerpt } from "../../core/excerpt.ts";
import { openCosignatures } from "../../core/tlog/cosignature.ts";
import type { PolicyWitness } from "../../core/tlog/log-policy.ts";
import type { NoteSignature } from "../../core/tlog/note.ts";
import { consistencyProof } from "../../core/tlog/proofs.ts";
import { TileHashes, type TileStore } from "../../core/tlog/tile-hashes.ts";
import {
  formatAddCheckpoint,
  parseCosignatureLines,
  parseSizeBody,
  SIZE_MEDIA_TYPE,
} from "../../core/tlog/witness-protocol.ts";

/** How long one request to a witness may take: a witness persists its state before it answers, which is quick. */
const WITNESS_TIMEOUT_MS = 20_000;

/** The most of an answer's body read: a cosignature line is under 200 bytes, a reason a line. */
const MAX_ANSWER_BYTES = 16 * 1024;

export type WitnessAnswer =
  | { outcome: "cosigned"; witness: PolicyWitness; cosignature: NoteSignature; timestamp: number }
  | { outcome: "refused" | "unreachable"; witness: PolicyWitness; status?: number; answer: string };

/** The checkpoint to have cosigned: its note as the log signed it, its text and size, the log's tiles, and now. */
export interface CosignRequest {
  signedCheckpoint: string;
  text: string;
  size: number;
  tiles: TileStore;
  /** Seconds since 1970: a cosignature dated past this (and the skew clocks have) is no witness's honest answer. */
  nowSeconds: number;
}

/**
 * The answer of `witness` (a policy witness with a URL) to the checkpoint in `request`, asked from `oldSize` (the
 * size the log believes it last cosigned: 0 when it does not know).
 */
export async function askWitness(
  witness: PolicyWitness & { url: string },
  request: CosignRequest,
  oldSize: number,
  timeoutMs = WITNESS_TIMEOUT_MS,
): Promise<WitnessAnswer> {
  const endpoint = `${witness.url.replace(/\/+$/, "")}/add-checkpoint`;
  let from = Math.min(oldSize, request.size);
  for (let attempt = 0; ; attempt++) {
    const tiles = new TileHashes(request.tiles, request.size);
    const proof = from === 0 ? [] : await consistencyProof(tiles, from, request.size);
    const body = formatAddCheckpoint({ oldSize: from, proof, checkpoint: request.signedCheckpoint });
    const sent = await post(endpoint, body, timeoutMs);
    if ("error" in sent) return { outcome: "unreachable", witness, answer: sent.error };
    const { status, type } = sent;
    if (status === 200) return cosignature(witness, request, sent.body);
    const answer = `${status}: ${excerpt(sent.body.trim())}`;
    if (status >= 500) return { outcome: "unreachable", witness, status, answer };
    if (status !== 409) return { outcome: "refused", witness, status, answer };
    const size = type.split(";")[0]!.trim() === SIZE_MEDIA_TYPE ? parseSizeBody(sent.body) : undefined;
    if (size === undefined)
      return { outcome: "refused", witness, status, answer: `${answer} (not a ${SIZE_MEDIA_TYPE} size)` };
    if (size > request.size)
      return {
        outcome: "refused",
        witness,
        status,
        answer: `409: it cosigned size ${size}, past this log's ${request.size}: the log lost entries it had witnessed`,
      };
    if (attempt > 0 || size === from)
      return { outcome: "refused", witness, status, answer: `409: size ${size} again, after a request from it` };
    from = size;
  }
}

/** The witness's cosignature among the lines of a 200's body, once it verifies for the checkpoint's text. */
async function cosignature(witness: PolicyWitness, request: CosignRequest, body: string): Promise<WitnessAnswer> {
  const { text, nowSeconds } = request;
  const lines = parseCosignatureLines(body);
  const refused = (why: string): WitnessAnswer => ({ outcome: "refused", witness, status: 200, answer: `200: ${why}` });
  if (lines === undefined) return refused(`not note signature lines: ${excerpt(body.trim())}`);
  const opened = await openCosignatures({ text, signatures: lines }, [witness.key]);
  if (!opened.ok) return refused("its cosignature does not verify for the checkpoint");
  const mine = lines.find((line) => line.keyName === witness.key.name && line.keyId === witness.key.keyId);
  const timestamp = opened.cosigned[0]?.timestamp;
  if (mine === undefined || timestamp === undefined) return refused("no cosignature by the policy's key for it");
  // Kept, it would count as fresh to every later run (never asked again) and as stale to the gate (never built).
  if (timestamp > nowSeconds + CLOCK_SKEW) return refused(`its cosignature is dated in the future (time ${timestamp})`);
  return { outcome: "cosigned", witness, cosignature: mine, timestamp };
}

type Posted = { status: number; body: string; type: string } | { error: string };

async function post(url: string, body: string, timeoutMs: number): Promise<Posted> {
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain; charset=utf-8" },
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = await boundedBody(response);
    const text = bytes === undefined ? `(a body over ${MAX_ANSWER_BYTES} bytes)` : (decodeUtf8(bytes) ?? "(not UTF-8)");
    return { status: response.status, body: text, type: response.headers.get("content-type") ?? "" };
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: { code?: string } };
    if (name === "TimeoutError") return { error: `no answer in ${timeoutMs / 1000} s` };
    return { error: cause?.code ?? message };
  }
}

/** The body's bytes, or undefined once past MAX_ANSWER_BYTES: a witness's answer must not fill memory. */
async function boundedBody(response: Response): Promise<Uint8Array | undefined> {
  if (response.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const part of response.body) {
    length += part.length;
    // Leaving the loop cancels the stream: nothing more of it is read.
    if (length > MAX_ANSWER_BYTES) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts);
}
