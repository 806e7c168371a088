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

const COMMON_HEADERS: ReadonlyArray<[string, string]> = [
  ["X-UM-Resolver-Contract", CONTRACT],
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"],
  ["Access-Control-Allow-Headers", "If-None-Match"],
  ["Access-Control-Expose-Headers", "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract"],
  // Browsers cap this (Chromium at 2 hours); it spares a preflight per revalidation.
  ["Access-Control-Max-Age", "7200"],
  ["X-Content-Type-Options", "nosniff"],
];

export function contractHeaders(cacheControl: string, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(COMMON_HEADERS as [string, string][]);
  headers.set("Cache-Control", cacheControl);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

const encoder = new TextEncoder();

/** A JSON answer that no cache may keep: health, descriptor and every error. */
export function uncachedJson(status: number, body: unknown): Response {
  const bytes = encoder.encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: contractHeaders(CACHE_NONE, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": String(bytes.byteLength) }),
  });
}

export function manifestResponse(body: Uint8Array<ArrayBuffer>, etag: string): Response {
  return new Response(body, {
    status: 200,
    headers: contractHeaders(CACHE_RESOLVED, {
      "Content-Type": MANIFEST_CONTENT_TYPE,
      "Content-Length": String(body.byteLength),
      ETag: etag,
    }),
  });
}

/** 304: the 200's headers (spec 4.3: "as 200") but no body, and so no Content-Length. */
export function notModified(etag: string): Response {
  return new Response(null, { status: 304, headers: contractHeaders(CACHE_RESOLVED, { "Content-Type": MANIFEST_CONTENT_TYPE, ETag: etag }) });
}

export function temporaryRedirect(location: string): Response {
  return new Response(null, { status: 307, headers: contractHeaders(CACHE_RESOLVED, { Location: location }) });
}

export function preflight(): Response {
  return new Response(null, { status: 204, headers: contractHeaders(CACHE_NONE) });
}

/** HEAD: the GET answer's status and headers, Content-Length included, and no body. */
export function withoutBody(response: Response): Response {
  return response.body === null ? response : new Response(null, { status: response.status, headers: response.headers });
}
