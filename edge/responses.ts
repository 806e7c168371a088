/**
 * The answers of the contract, as plain data: status, header list, body bytes. Every
 * header is set here, from scratch, on every answer: hosts' static layers add their own
 * ETag and Cache-Control, and Netlify does not apply `_headers` rules to edge responses,
 * so nothing is inherited. Fetch hosts get a Response made from an answer (toResponse);
 * the Node adapter writes an answer to its socket without one.
 */

import { CACHE_RESOLVED, JSON_CONTENT_TYPE } from "../core/served-kinds.ts";
import { statusCursor, type StatusDocument } from "../core/status/status-document.ts";
import type { StatusEntry } from "./records.ts";
import type { RouteRow } from "./route-table.ts";
import { TLOG_PROOF_RELATION } from "../core/umid-path.ts";

export const CONTRACT = "manifest-resolver/v0.1";
export const MANIFEST_CONTENT_TYPE = "application/ld+json; charset=utf-8";
export const CACHE_NONE = "no-store";

export type HeaderList = [string, string][];

export interface Answer {
  status: number;
  headers: HeaderList;
  body: Uint8Array<ArrayBuffer> | null;
}

/** What every path answers: a preflight whatever the path, and GET (with HEAD) for the rest. */
const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

const COMMON_HEADERS: HeaderList = [
  ["X-UM-Resolver-Contract", CONTRACT],
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Allow-Methods", ALLOWED_METHODS],
  ["Access-Control-Allow-Headers", "If-None-Match"],
  // The contract's exposed headers, and Link: a manifest's names its offline proof (edge/log-proof.ts).
  ["Access-Control-Expose-Headers", "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract, Link"],
  // Browsers cap this (Chromium at 2 hours); it spares a preflight per revalidation.
  ["Access-Control-Max-Age", "7200"],
  ["X-Content-Type-Options", "nosniff"],
];
// Built once: a response copies the list it is given.
const RESOLVED: HeaderList = [...COMMON_HEADERS, ["Cache-Control", CACHE_RESOLVED]];
const UNCACHED: HeaderList = [...COMMON_HEADERS, ["Cache-Control", CACHE_NONE]];
const UNCACHED_JSON: HeaderList = [...UNCACHED, ["Content-Type", JSON_CONTENT_TYPE]];

export function toResponse({ status, headers, body }: Answer): Response {
  return new Response(body, { status, headers });
}

const encoder = new TextEncoder();

/** A JSON answer that no cache may keep: health, descriptor and every error. */
export function uncachedJson(status: number, body: unknown): Answer {
  const bytes = encoder.encode(JSON.stringify(body)) as Uint8Array<ArrayBuffer>;
  return { status, headers: [...UNCACHED_JSON, ["Content-Length", String(bytes.byteLength)]], body: bytes };
}

/**
 * The one page of HTML the resolver serves (edge/home-page.ts): no script, and a policy that loads nothing, not even
 * the page's own icon, which is inline.
 */
const HTML_PAGE_HEADERS: HeaderList = [
  ...UNCACHED,
  ["Content-Type", "text/html; charset=utf-8"],
  [
    "Content-Security-Policy",
    "default-src 'none'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ],
];

export function htmlPage(html: string): Answer {
  const bytes = encoder.encode(html) as Uint8Array<ArrayBuffer>;
  return { status: 200, headers: [...HTML_PAGE_HEADERS, ["Content-Length", String(bytes.byteLength)]], body: bytes };
}

/** Any other method: 405, with the methods the path allows (RFC 9110 §15.5.6: a 405 MUST carry Allow). */
export function methodNotAllowed(): Answer {
  const answer = uncachedJson(405, { error: "method_not_allowed" });
  return { ...answer, headers: [...answer.headers, ["Allow", ALLOWED_METHODS]] };
}

/** `proof`: the path of the UMID's offline proof, linked when the resolver serves a log (edge/log-proof.ts). */
export function manifestAnswer(body: Uint8Array<ArrayBuffer>, etag: string, proof?: string): Answer {
  const answer = cachedBody(MANIFEST_CONTENT_TYPE, body, etag);
  return proof === undefined ? answer : withProofLink(answer, proof);
}

/** A manifest's 304, with its 200's link to its proof. */
export function manifestNotModified(etag: string, proof?: string): Answer {
  const answer = notModified(etag);
  return proof === undefined ? answer : withProofLink(answer, proof);
}

/** `proof` is of a request path: percent-encoded by the URL parser, so it holds no `>` to end the reference. */
function withProofLink(answer: Answer, proof: string): Answer {
  answer.headers.push(["Link", `<${proof}>; rel="${TLOG_PROOF_RELATION}"`]);
  return answer;
}

function cachedBody(
  contentType: string,
  body: Uint8Array<ArrayBuffer>,
  etag: string,
  cached: HeaderList = RESOLVED,
): Answer {
  return {
    status: 200,
    headers: [...cached, ["Content-Type", contentType], ["Content-Length", String(body.byteLength)], ["ETag", etag]],
    body,
  };
}

/** How a routed document, or one composed from them (an offline proof), is served: a row but where it is stored. */
type Served = Omit<RouteRow, "stored">;

/**
 * A document the route table routes (edge/routed-documents.ts), with the media type and caching its row gives: its
 * headers are a manifest's but for those two.
 */
export function routedAnswer(body: Uint8Array<ArrayBuffer>, { contentType, cacheControl, etag }: Served): Answer {
  return cachedBody(contentType, body, etag, [...COMMON_HEADERS, ["Cache-Control", cacheControl]]);
}

/** 304 for a routed document: its 200's headers but the body's length. */
export function routedNotModified({ contentType, cacheControl, etag }: Served): Answer {
  return notModifiedWith([...COMMON_HEADERS, ["Cache-Control", cacheControl]], etag, contentType);
}

/**
 * The status document (EXT-OPT O2.2) of `umid` in `status`, as it is served. Its ETag is
 * the digest of exactly these bytes (edge/records.ts, StatusWithEtag): not the cursor,
 * which O2.1 suggests but which stays the same when only the reason changes, so that a
 * revalidation would keep the old reason for ever.
 */
export function statusDocumentBytes(
  umid: string,
  { status, updatedAt, reason, nextCheck }: StatusEntry,
): Uint8Array<ArrayBuffer> {
  const document: StatusDocument = {
    manifestId: umid,
    status,
    updatedAt,
    ...(reason !== undefined && { reason }),
    cursor: statusCursor(updatedAt),
    nextCheck,
  };
  return encoder.encode(JSON.stringify(document)) as Uint8Array<ArrayBuffer>;
}

/** A status document (statusDocumentBytes), cached like a manifest. */
export function statusAnswer(body: Uint8Array<ArrayBuffer>, etag: string): Answer {
  return cachedBody(JSON_CONTENT_TYPE, body, etag);
}

/** 304: the 200's headers (spec 4.3: "as 200") but no body, and so no Content-Length. */
export function notModified(etag: string, contentType = MANIFEST_CONTENT_TYPE): Answer {
  return notModifiedWith(RESOLVED, etag, contentType);
}

function notModifiedWith(cached: HeaderList, etag: string, contentType: string): Answer {
  return { status: 304, headers: [...cached, ["Content-Type", contentType], ["ETag", etag]], body: null };
}

export function temporaryRedirect(location: string): Answer {
  return { status: 307, headers: [...RESOLVED, ["Location", location]], body: null };
}

export function preflight(): Answer {
  return { status: 204, headers: UNCACHED, body: null };
}
