/**
 * The resolver's ETag: `W/"sha256-<base64url of SHA-256 of the exact body bytes>"`.
 * The build computes it once per body; the edge recomputes it only to prove a stored
 * body still matches what the build recorded.
 */
import { decodeBase64url, encodeBase64url } from "../core/base64url.ts";

export function formatEtag(sha256: Uint8Array): string {
  return `W/"sha256-${encodeBase64url(sha256)}"`;
}

/** The SHA-256 an ETag of formatEtag's form carries. */
export function etagSha256(etag: string): Uint8Array {
  if (!isEtag(etag)) throw new Error(`not an ETag the build writes: ${etag}`);
  return decodeBase64url(etag.slice('W/"sha256-'.length, -1))!;
}

/** Whether `value` is an ETag of formatEtag's form: one the build wrote, and so a header value. */
export function isEtag(value: unknown): value is string {
  return typeof value === "string" && /^W\/"sha256-[A-Za-z0-9_-]{43}"$/.test(value);
}

export async function etagOf(body: Uint8Array<ArrayBuffer>): Promise<string> {
  return formatEtag(new Uint8Array(await crypto.subtle.digest("SHA-256", body)));
}
