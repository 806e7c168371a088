/**
 * The answers of the contract, as plain data: status, header list, body bytes. Every
 * header is set here, from scratch, on every answer: hosts' static layers add their own
 * ETag and Cache-Control, and Netlify does not apply `_headers` rules to edge responses,
 * so nothing is inherited. Fetch hosts get a Response made from an answer (toResponse);
 * the Node adapter writes an answer to its socket without one.
 */

import { statusCursor, type StatusDocument } from "../core/status/status-document.ts";
import type { LogFileKind } from "./log-files.ts";
import type { WellKnownKind } from "./well-known-documents.ts";
import type { StatusEntry } from "./records.ts";

export const CONTRACT = "manifest-resolver/v0.1";
export const MANIFEST_CONTENT_TYPE = "application/ld+json; charset=utf-8";
export const JSON_CONTENT_TYPE = "application/json";
/** A DID document in its JSON representation (DID Core §6.2, IANA-registered). */
export const DID_CONTENT_TYPE = "application/did+json";
export const CACHE_RESOLVED = "public, max-age=60";
export const CACHE_NONE = "no-store";
/**
 * The log's checkpoint changes with each deploy that appends to it: C2SP tlog-tiles asks that its headers "prevent
 * caching beyond a few seconds", so that a client checking a manifest it just fetched finds a checkpoint at least
 * about as new. A partial tile is kept no longer: its bytes never change, but it is served only while it is the
 * tree's right edge, and a short life bounds what caches keep of a log started again under the same prefix.
 */
export const CACHE_LOG_EDGE = "public, max-age=5";
/** Full tiles, entry bundles and bucket files: their path names what they hold (a bucket's, its tree's size). */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";

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
  ["Access-Control-Expose-Headers", "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract"],
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

/** Any other method: 405, with the methods the path allows (RFC 9110 §15.5.6: a 405 MUST carry Allow). */
export function methodNotAllowed(): Answer {
  const answer = uncachedJson(405, { error: "method_not_allowed" });
  return { ...answer, headers: [...answer.headers, ["Allow", ALLOWED_METHODS]] };
}

export function manifestAnswer(body: Uint8Array<ArrayBuffer>, etag: string): Answer {
  return cachedBody(MANIFEST_CONTENT_TYPE, body, etag);
}

/** A did:web document the build published (edge/did-documents.ts), cached like a manifest. */
export function didDocumentAnswer(body: Uint8Array<ArrayBuffer>, etag: string): Answer {
  return cachedBody(DID_CONTENT_TYPE, body, etag);
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

/** How each of the log's files is served (C2SP tlog-tiles: its media types, and which are immutable). */
const LOG_EDGE: HeaderList = [...COMMON_HEADERS, ["Cache-Control", CACHE_LOG_EDGE]];
const IMMUTABLE: HeaderList = [...COMMON_HEADERS, ["Cache-Control", CACHE_IMMUTABLE]];
const LOG_FILES: Record<LogFileKind, { contentType: string; cached: HeaderList }> = {
  checkpoint: { contentType: "text/plain; charset=utf-8", cached: LOG_EDGE },
  "partial-tile": { contentType: "application/octet-stream", cached: LOG_EDGE },
  tile: { contentType: "application/octet-stream", cached: IMMUTABLE },
  bucket: { contentType: JSON_CONTENT_TYPE, cached: IMMUTABLE },
};

/** One of the transparency log's files (edge/log-files.ts). */
export function logFileAnswer(kind: LogFileKind, body: Uint8Array<ArrayBuffer>, etag: string): Answer {
  const { contentType, cached } = LOG_FILES[kind];
  return cachedBody(contentType, body, etag, cached);
}

/** 304 for one of the log's files: its 200's headers but the body's length. */
export function logFileNotModified(kind: LogFileKind, etag: string): Answer {
  const { contentType, cached } = LOG_FILES[kind];
  return { status: 304, headers: [...cached, ["Content-Type", contentType], ["ETag", etag]], body: null };
}

/**
 * A status list is fetched once for many manifests: a relying party keeps it this long (the list's own ttl, 300 s,
 * is the same), and the discovery document with it.
 */
export const CACHE_WELL_KNOWN = "public, max-age=300";
const WELL_KNOWN: HeaderList = [...COMMON_HEADERS, ["Cache-Control", CACHE_WELL_KNOWN]];
/** A VC Data Model 2.0 credential, secured by an embedded proof (VC Data Model 2.0 §6.3). */
const VC_CONTENT_TYPE = "application/vc+ld+json";
const WELL_KNOWN_TYPES: Record<WellKnownKind, string> = {
  "status-list": VC_CONTENT_TYPE,
  resolvers: JSON_CONTENT_TYPE,
};

/** A status list or the discovery document (edge/well-known-documents.ts). */
export function wellKnownAnswer(kind: WellKnownKind, body: Uint8Array<ArrayBuffer>, etag: string): Answer {
  return cachedBody(WELL_KNOWN_TYPES[kind], body, etag, WELL_KNOWN);
}

/** 304 for a status list or the discovery document: its 200's headers but the body's length. */
export function wellKnownNotModified(kind: WellKnownKind, etag: string): Answer {
  return {
    status: 304,
    headers: [...WELL_KNOWN, ["Content-Type", WELL_KNOWN_TYPES[kind]], ["ETag", etag]],
    body: null,
  };
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
  return { status: 304, headers: [...RESOLVED, ["Content-Type", contentType], ["ETag", etag]], body: null };
}

export function temporaryRedirect(location: string): Answer {
  return { status: 307, headers: [...RESOLVED, ["Location", location]], body: null };
}

export function preflight(): Answer {
  return { status: 204, headers: UNCACHED, body: null };
}
