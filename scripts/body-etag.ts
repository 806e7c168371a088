/**
 * The resolver's ETag of a body (edge/etag.ts), computed at once with Node's SHA-256: for the build and `probe`,
 * which need no WebCrypto promise.
 */
import { createHash } from "node:crypto";
import { formatEtag } from "../edge/etag.ts";

export function bodyEtag(body: Uint8Array): string {
  return formatEtag(createHash("sha256").update(body).digest());
}
