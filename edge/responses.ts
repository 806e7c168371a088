/**
 * Response construction for the contract: every header is set here, from scratch, on
 * every response. Hosts' static layers add their own ETag and Cache-Control, and Netlify
 * does not apply `_headers` rules to edge responses, so nothing is inherited.
 */

export const CONTRACT = "manifest-resolver/v0.1";
export const MANIFEST_CONTENT_TYPE = "application/ld+json; charset=utf-8";
export const JSON_CONTENT_TYPE = "application/json";
export const CACHE_RESOLVED = "public, max-age=60";
export const CACHE_NONE = "no-store";

type HeaderList = [string, string][];

const COMMON_HEADERS: HeaderList = [
  ["X-UM-Resolver-Contract", CONTRACT],
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"],
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

/**
 * The bytes of each body made here. The Node adapter writes them straight to the socket
 * instead of reading the Response's stream back; every other host reads the Response.
 */
const bodies = new WeakMap<Response, Uint8Array>();

export function bodyBytes(response: Response): Uint8Array | undefined {
  return bodies.get(response);
}

function respond(status: number, headers: HeaderList, body: Uint8Array<ArrayBuffer> | null = null): Response {
  const response = new Response(body, { status, headers });
  if (body !== null) bodies.set(response, body);
  return response;
}

const encoder = new TextEncoder();

/** A JSON answer that no cache may keep: health, descriptor and every error. */
export function uncachedJson(status: number, body: unknown): Response {
  const bytes = encoder.encode(JSON.stringify(body)) as Uint8Array<ArrayBuffer>;
  return respond(status, [...UNCACHED_JSON, ["Content-Length", String(bytes.byteLength)]], bytes);
}

export function manifestResponse(body: Uint8Array<ArrayBuffer>, etag: string): Response {
  return respond(200, [...RESOLVED, ["Content-Type", MANIFEST_CONTENT_TYPE], ["Content-Length", String(body.byteLength)], ["ETag", etag]], body);
}

/** 304: the 200's headers (spec 4.3: "as 200") but no body, and so no Content-Length. */
export function notModified(etag: string): Response {
  return respond(304, [...RESOLVED, ["Content-Type", MANIFEST_CONTENT_TYPE], ["ETag", etag]]);
}

export function temporaryRedirect(location: string): Response {
  return respond(307, [...RESOLVED, ["Location", location]]);
}

export function preflight(): Response {
  return respond(204, UNCACHED);
}

/** HEAD: the GET answer's status and headers, Content-Length included, and no body. */
export function withoutBody(response: Response): Response {
  return response.body === null ? response : new Response(null, { status: response.status, headers: response.headers });
}
