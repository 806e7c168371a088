/**
 * The log's entries (issue 26, section 1): what the resolver serves for each UMID, as the
 * JCS bytes of `{umid, state, sha256}` for a served body (its state active or suspended,
 * its SHA-256 the one the body's ETag carries), `{umid, state: "revoked"}` or `{umid,
 * state: "redirected", location}`. Taken from the content check, the build's own reading
 * of the content, so that the log records exactly what `build` serves.
 */
import { canonicalize } from "../../core/crypto/jcs.ts";
import { decodeUtf8, encodeBase64url, utf8 } from "../../core/base64url.ts";
import type { ContentCheck } from "../check/check-content.ts";

/** Each UMID the content serves, with its entry's JCS text. */
export function servedEntries(content: ContentCheck): Map<string, string> {
  const served = new Map<string, string>();
  const { published, statuses } = content;
  for (let i = 0; i < published.length; i++) {
    const umid = published.umidAt(i);
    const state = statuses.get(umid)?.list === "suspended" ? "suspended" : "active";
    served.set(umid, canonicalize({ umid, state, sha256: encodeBase64url(published.digestBytesAt(i)) }));
  }
  for (const umid of content.revoked) served.set(umid, canonicalize({ umid, state: "revoked" }));
  for (const [umid, location] of content.redirects)
    served.set(umid, canonicalize({ umid, state: "redirected", location }));
  return served;
}

/** The latest entry of each UMID in a log's entries, as text; undefined when an entry is not one this log writes. */
export function latestEntries(entries: readonly Uint8Array[]): Map<string, string> | undefined {
  const latest = new Map<string, string>();
  for (const entry of entries) {
    const text = decodeUtf8(entry);
    const umid = text === undefined ? undefined : entryUmid(text);
    if (umid === undefined) return undefined;
    latest.set(umid, text!);
  }
  return latest;
}

function entryUmid(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    const umid = (value as { umid?: unknown } | null)?.umid;
    return typeof umid === "string" ? umid : undefined;
  } catch {
    return undefined;
  }
}

/** The entries to append: those of the UMIDs whose served state is not their latest entry, in UMID order. */
export function changedEntries(served: ReadonlyMap<string, string>, latest: ReadonlyMap<string, string>): Uint8Array[] {
  return [...served]
    .filter(([umid, entry]) => latest.get(umid) !== entry)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => utf8(entry));
}
