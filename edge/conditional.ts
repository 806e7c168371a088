/**
 * `If-None-Match` evaluation (RFC 9110 §13.1.2) for a representation that exists.
 *
 * Weak comparison: only the opaque parts are compared, `W/` is ignored on either side.
 * Netlify appends `-df` to the ETag of a compressed cached object and clients echo it
 * back, so a candidate equal to ours plus that suffix also matches.
 */

const ENTITY_TAG = /(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/g;

export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  // A client revalidating echoes the ETag it was given: no need to parse a list.
  if (header === etag) return true;
  if (header.trim() === "*") return true;
  const opaque = opaqueTag(etag);
  for (const [, candidate] of header.matchAll(ENTITY_TAG)) {
    if (candidate === opaque || candidate === `${opaque}-df`) return true;
  }
  return false;
}

function opaqueTag(etag: string): string {
  const start = etag.indexOf('"');
  return etag.slice(start + 1, etag.lastIndexOf('"'));
}
