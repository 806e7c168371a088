/**
 * The resolver: one web-standard function from `Request` to `Response` that answers the
 * whole HTTP contract (spec 4 and 7), and the status endpoint of EXT-OPT O2 (the status
 * of each UMID, at `STATUS_PREFIX/{UMID_PATH}`). It uses only Fetch and WebCrypto, so the same code
 * runs on Deno (Netlify), workerd (Cloudflare) and Node; adapters only supply a RecordStore.
 * Every other document it serves (did:web documents, status lists, the discovery document, the transparency log's
 * files) is a row of the route table the build wrote, answered by one function (routed-documents.ts), but a UMID's
 * offline proof, composed from the log's rows (log-proof.ts), which a manifest answer links to.
 * Underneath, `answer` gives the same answer as plain data, for an adapter that can write
 * it without a Response (Node's).
 */
import { ifNoneMatchMatches } from "./conditional.ts";
import { descriptor } from "./descriptor.ts";
import { homePage, type HomePageOptions } from "./home-page.ts";
import { isProofPath, proofAnswer, proofLinkOf } from "./log-proof.ts";
import type { RecordStore, ResolverRecord } from "./records.ts";
import {
  CONTRACT,
  manifestAnswer,
  manifestNotModified,
  methodNotAllowed,
  notModified,
  preflight,
  routedAnswer,
  routedNotModified,
  statusAnswer,
  statusDocumentBytes,
  temporaryRedirect,
  toResponse,
  uncachedJson,
  type Answer,
} from "./responses.ts";
import { isOwnedPath, isRoutable } from "./routed-documents.ts";
import { JSON_CONTENT_TYPE } from "../core/served-kinds.ts";
import { DESCRIPTOR_PATH, HEALTH_PATH, parseUmidPath, pathnameOf, STATUS_PREFIX } from "../core/umid-path.ts";

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

/** `home`: what the resolver's own address links to (edge/home-page.ts). */
export async function answer(
  request: ResolverRequest,
  records: RecordStore,
  home: HomePageOptions = {},
): Promise<Answer> {
  const method = request.method;
  // A preflight is answered whatever the path: a failed preflight would hide the real
  // status (400, 404, ...) of the request that follows from the page that sent it.
  if (method === "OPTIONS") return preflight();
  if (method !== "GET" && method !== "HEAD") return methodNotAllowed();
  const get = await answerGet(request, records, home);
  // HEAD: GET's status and headers, Content-Length included, and no body.
  return method === "HEAD" ? { ...get, body: null } : get;
}

async function answerGet(request: ResolverRequest, records: RecordStore, home: HomePageOptions): Promise<Answer> {
  const pathname = pathnameOf(request.url);
  if (pathname === "/") return homePage(request.headers.get("Accept"), home);
  if (pathname === HEALTH_PATH) return uncachedJson(200, { status: "ok", contract: CONTRACT });
  if (pathname === DESCRIPTOR_PATH) return uncachedJson(200, descriptor);
  if (isProofPath(pathname)) return proofAnswer(pathname, request.headers.get("If-None-Match"), records);
  if (isRoutable(pathname)) {
    const routed = await routedDocument(pathname, request, records);
    if (routed !== undefined) return routed;
  }

  // The status endpoint takes a UMID_PATH after its prefix as the resolve endpoint does.
  const forStatus = pathname === STATUS_PREFIX || pathname.startsWith(`${STATUS_PREFIX}/`);
  const parsed = parseUmidPath(forStatus ? pathname.slice(STATUS_PREFIX.length) : pathname);
  if ("error" in parsed) return uncachedJson(400, { error: "bad_request", message: parsed.error });
  const { umid } = parsed;
  // Read beside the record, once per record store (log-proof.ts); never rejects.
  const servesLog = forStatus ? undefined : records.routes.servesLog(records.blob);

  let record: ResolverRecord | undefined;
  try {
    record = await records.get(umid);
  } catch (error) {
    console.error(`manifest-resolver: record lookup failed for ${JSON.stringify(umid)}:`, error);
    record = { kind: "corrupt" };
  }
  if (record?.kind === "corrupt") return uncachedJson(500, { error: "corrupt_record", umid });
  if (servesLog === undefined) return statusOf(umid, record, request);
  const proof = record?.kind === "manifest" && (await servesLog) ? proofLinkOf(pathname) : undefined;
  return resolution(umid, record, request, proof);
}

/**
 * The document the route table routes `pathname` to, or 304 for it; 404 for one of the resolver's own paths with no
 * row; undefined for any other path with no row, which is then read as a UMID path.
 */
async function routedDocument(
  pathname: string,
  request: ResolverRequest,
  records: RecordStore,
): Promise<Answer | undefined> {
  const document = await records.routes.document(pathname, records.blob);
  if (document === undefined)
    return isOwnedPath(pathname) ? uncachedJson(404, { error: "not_found", path: pathname }) : undefined;
  if (document.kind === "corrupt") return uncachedJson(500, { error: "corrupt_record", path: pathname });
  const { row, body } = document;
  return ifNoneMatchMatches(request.headers.get("If-None-Match"), row.etag)
    ? routedNotModified(row)
    : routedAnswer(body, row);
}

/** `proof`: the path of the UMID's offline proof, when the resolver serves a log. */
function resolution(
  umid: string,
  record: Exclude<ResolverRecord, { kind: "corrupt" }> | undefined,
  request: ResolverRequest,
  proof: string | undefined,
): Answer {
  switch (record?.kind) {
    case undefined:
      return uncachedJson(404, { error: "not_found", umid });
    case "revoked":
      return uncachedJson(410, { error: "revoked", umid });
    case "redirect":
      return temporaryRedirect(record.location);
    case "manifest":
      return ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag)
        ? manifestNotModified(record.etag, proof)
        : manifestAnswer(record.body, record.etag, proof);
  }
}

/** O2.2: the status of a UMID this resolver publishes or revoked; a redirected one has none here. */
function statusOf(
  umid: string,
  record: Exclude<ResolverRecord, { kind: "corrupt" }> | undefined,
  request: ResolverRequest,
): Answer {
  if (record === undefined || record.kind === "redirect") return uncachedJson(404, { error: "not_found", umid });
  if (record.status === undefined) {
    console.error(
      `manifest-resolver: the record of ${JSON.stringify(umid)} has no status: it was ` +
        `stored by a build older than this handler`,
    );
    return uncachedJson(500, { error: "corrupt_record", umid });
  }
  const { etag } = record.status;
  if (ifNoneMatchMatches(request.headers.get("If-None-Match"), etag)) return notModified(etag, JSON_CONTENT_TYPE);
  return statusAnswer(statusDocumentBytes(umid, record.status), etag);
}
