/**
 * A witness's HTTP service (C2SP tlog-witness), as one web-standard Request → Response
 * function, which the Node server and the Cloudflare Worker both serve. Its submission
 * and monitoring prefixes are both the root:
 * - `POST /add-checkpoint`: add-checkpoint.ts decides; a 200's body is the cosignature
 *   line, a 409's the size last cosigned (`text/x.tlog.size`), any other a line saying why.
 * - `GET /<hex SHA-256 of the origin>/checkpoint`: the latest checkpoint cosigned, with
 *   the log's signatures and the witness's cosignature, for monitors.
 * - `GET /health`: 200 and the witness's name, cosigner key and number of logs, as JSON.
 * A body past `maxBodyBytes` is refused (413) before it is read whole. Each request is
 * logged as one structured event.
 */
import { formatVerifierKey, COSIGNATURE_TYPE } from "../tlog/note-keys.ts";
import { SIZE_MEDIA_TYPE } from "../tlog/witness-protocol.ts";
import { type AddCheckpointAnswer, addCheckpoint, type Witness } from "./add-checkpoint.ts";
import { originHash, type WitnessStore } from "./witness-store.ts";

/** An add-checkpoint body of 63 proof lines and a checkpoint of 100 signatures is under 16 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface WitnessEvent {
  method: string;
  path: string;
  status: number;
  /** Milliseconds from the request to the answer. */
  ms: number;
  origin?: string;
  size?: number;
  reason?: string;
}

export interface WitnessService {
  witness: Witness;
  store: WitnessStore;
  /** Called once per request, after its answer is made. */
  log?: (event: WitnessEvent) => void;
  maxBodyBytes?: number;
}

const TEXT = "text/plain; charset=utf-8";

export function witnessHandler(service: WitnessService): (request: Request) => Promise<Response> {
  const { witness, store } = service;
  const origins = Promise.all(
    [...witness.logs.keys()].map(async (origin) => [await originHash(origin), origin] as const),
  ).then((pairs) => new Map(pairs));
  const cosignerKey = formatVerifierKey(witness.signer.name, witness.signer.publicKey, COSIGNATURE_TYPE);
  return async (request) => {
    const started = performance.now();
    const path = new URL(request.url).pathname;
    const { response, event } = await answer(request, path);
    service.log?.({ method: request.method, path, status: response.status, ms: performance.now() - started, ...event });
    return response;
  };

  async function answer(
    request: Request,
    path: string,
  ): Promise<{ response: Response; event?: Omit<WitnessEvent, "method" | "path" | "status" | "ms"> }> {
    if (path === "/add-checkpoint") {
      if (request.method !== "POST") return { response: notAllowed("POST") };
      const body = await boundedBody(request, service.maxBodyBytes ?? MAX_BODY_BYTES);
      if (body === undefined)
        return { response: text(413, "the body is larger than this witness reads"), event: { reason: "too large" } };
      const answered = await addCheckpoint(body, witness, store);
      return { response: addCheckpointResponse(answered), event: eventOf(answered) };
    }
    const served = /^\/([0-9a-f]{64})\/checkpoint$/.exec(path);
    if (served !== null || path === "/health") {
      if (request.method !== "GET" && request.method !== "HEAD") return { response: notAllowed("GET, HEAD") };
      if (path === "/health")
        return {
          response: new Response(
            `${JSON.stringify({ status: "ok", name: witness.signer.name, key: cosignerKey, logs: witness.logs.size })}\n`,
            { headers: { "content-type": "application/json", "cache-control": "no-store" } },
          ),
        };
      const origin = (await origins).get(served![1]!);
      const latest = origin === undefined ? undefined : await store.latest(origin);
      if (latest === undefined) return { response: text(404, "this witness has cosigned no checkpoint of that log") };
      const headers = { "content-type": TEXT, "cache-control": "no-store" };
      return { response: new Response(request.method === "HEAD" ? null : latest.note, { headers }) };
    }
    return { response: text(404, "not a path of this witness: POST /add-checkpoint, GET /<origin hash>/checkpoint") };
  }
}

function addCheckpointResponse(answered: AddCheckpointAnswer): Response {
  if (answered.status === 200) return text(200, answered.cosignature, "");
  if (answered.status === 409)
    return new Response(`${answered.size}\n`, { status: 409, headers: { "content-type": SIZE_MEDIA_TYPE } });
  return text(answered.status, answered.reason);
}

function eventOf(answered: AddCheckpointAnswer): Omit<WitnessEvent, "method" | "path" | "status" | "ms"> {
  return {
    ...(answered.origin !== undefined && { origin: answered.origin }),
    ...("size" in answered && { size: answered.size }),
    ...("reason" in answered && { reason: answered.reason }),
  };
}

/** The body's bytes, or undefined once it is past `limit`: a witness never holds more of one. */
async function boundedBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      return undefined;
    }
    parts.push(value);
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return body;
}

function notAllowed(allow: string): Response {
  return new Response(`method not allowed: ${allow}\n`, { status: 405, headers: { "content-type": TEXT, allow } });
}

function text(status: number, message: string, end = "\n"): Response {
  return new Response(`${message}${end}`, { status, headers: { "content-type": TEXT } });
}
