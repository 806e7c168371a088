/**
 * File names for manifest bodies. The name is the base64url of the UMID (`m/<b64u>`),
 * unless that name cannot survive real hosts:
 * - Netlify (and macOS) match static paths case-insensitively, and base64url names can
 *   differ only in case: every UMID of such a group is named by digest instead;
 * - file systems cap names at 255 bytes (some encrypted ones at 143): long names are too.
 * Digest names (`h/<lowercase hex SHA-256 of the UMID>`) live in their own folder, so
 * they can never meet a base64url name; the index says which name a UMID has.
 */
import { createHash } from "node:crypto";
import { encodeBase64url, utf8 } from "../../edge/base64url.ts";

export const MAX_BASE64URL_NAME = 128;

export function bodyFileNames(umids: Iterable<string>): Map<string, string> {
  const byFoldedName = new Map<string, string[]>();
  for (const umid of umids) {
    const folded = encodeBase64url(utf8(umid)).toLowerCase();
    byFoldedName.set(folded, [...(byFoldedName.get(folded) ?? []), umid]);
  }
  const names = new Map<string, string>();
  for (const [folded, group] of byFoldedName) {
    for (const umid of group) {
      const safe = group.length === 1 && folded.length <= MAX_BASE64URL_NAME;
      names.set(umid, safe ? `m/${encodeBase64url(utf8(umid))}` : `h/${createHash("sha256").update(umid, "utf8").digest("hex")}`);
    }
  }
  return names;
}
