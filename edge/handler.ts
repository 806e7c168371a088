/**
 * The resolver: one web-standard function from `Request` to `Response` that answers the
 * whole HTTP contract (spec 4 and 7). It uses only Fetch and WebCrypto, so the same code
 * runs on Deno (Netlify), workerd (Cloudflare) and Node; adapters only supply a RecordStore.
 * Underneath, `answer` gives the same answer as plain data, for an adapter that can write
 * it without a Response (Node's).
 */
import { ifNoneMatchMatches } from "./conditional.ts";
import { descriptor } from "./descriptor.ts";
import type { RecordStore, ResolverRecord } from "./records.ts";
import { CONTRACT, manifestAnswer, notModified, preflight, temporaryRedirect, toResponse, uncachedJson, type Answer } from "./responses.ts";
import { DESCRIPTOR_PATH, HEALTH_PATH, parseUmidPath, pathnameOf } from "./umid-path.ts";

/**
 * What the handler reads of a request. Every Fetch `Request` is one; an adapter may pass a
 * lighter object of this shape (the Node adapter does, instead of building a Request).
 */
export interface ResolverRequest {
  method: string;
  /** Absolute, as `Request.url` is. */
  url: string;
  headers: { get(name: string): string | null };
}

export async function handleRequest(request: ResolverRequest, records: RecordStore): Promise<Response> {
  return toResponse(await answer(request, records));
}

export async function answer(request: ResolverRequest, records: RecordStore): Promise<Answer> {
  const method = request.method;
  // A preflight is answered whatever the path: a failed preflight would hide the real
  // status (400, 404, ...) of the request that follows from the page that sent it.
  if (method === "OPTIONS") return preflight();
  if (method !== "GET" && method !== "HEAD") return uncachedJson(405, { error: "method_not_allowed" });
  const get = await answerGet(request, records);
  // HEAD: GET's status and headers, Content-Length included, and no body.
  return method === "HEAD" ? { ...get, body: null } : get;
}

async function answerGet(request: ResolverRequest, records: RecordStore): Promise<Answer> {
  const pathname = pathnameOf(request.url);
  if (pathname === HEALTH_PATH) return uncachedJson(200, { status: "ok", contract: CONTRACT });
  if (pathname === DESCRIPTOR_PATH) return uncachedJson(200, descriptor);

  const parsed = parseUmidPath(pathname);
  if ("error" in parsed) return uncachedJson(400, { error: "bad_request", message: parsed.error });
  const { umid } = parsed;

  let record: ResolverRecord | undefined;
  try {
    record = await records.get(umid);
  } catch (error) {
    console.error(`manifest-resolver: record lookup failed for ${JSON.stringify(umid)}:`, error);
    record = { kind: "corrupt" };
  }
  switch (record?.kind) {
    case undefined:
      return uncachedJson(404, { error: "not_found", umid });
    case "revoked":
      return uncachedJson(410, { error: "revoked", umid });
    case "corrupt":
      return uncachedJson(500, { error: "corrupt_record", umid });
    case "redirect":
      return temporaryRedirect(record.location);
    case "manifest":
      return ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag)
        ? notModified(record.etag)
        : manifestAnswer(record.body, record.etag);
  }
}
