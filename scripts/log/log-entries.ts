/**
 * The entries the content calls for (issue 26, section 1), taken from the content check,
 * the build's own reading of the content, so that the log records exactly what `build`
 * serves: a served body's SHA-256 is the one its ETag carries.
 */
import { decodeUtf8, encodeBase64url, utf8 } from "../../core/base64url.ts";
import { logEntryText, parseLogEntry } from "../../core/tlog/log-entry.ts";
import type { ContentCheck } from "../check/check-content.ts";

/** Each UMID the content serves, with its entry's JCS text. */
export function servedEntries(content: ContentCheck): Map<string, string> {
  const served = new Map<string, string>();
  const text = logEntryText;
  const { published, statuses } = content;
  for (let i = 0; i < published.length; i++) {
    const umid = published.umidAt(i);
    const state = statuses.get(umid)?.list === "suspended" ? "suspended" : "active";
    served.set(umid, text({ umid, state, sha256: encodeBase64url(published.digestBytesAt(i)) }));
  }
  for (const umid of content.revoked) served.set(umid, text({ umid, state: "revoked" }));
  for (const [umid, location] of content.redirects) served.set(umid, text({ umid, state: "redirected", location }));
  return served;
}

export interface LoggedEntries {
  /** The latest entry of each UMID, as text. */
  latest: Map<string, string>;
  /** The UMID of each entry, in log order. */
  umids: string[];
}

/** What a log's entries say; undefined when one is not an entry this log writes. */
export function loggedEntries(entries: readonly Uint8Array[]): LoggedEntries | undefined {
  const latest = new Map<string, string>();
  const umids: string[] = [];
  for (const entry of entries) {
    const umid = parseLogEntry(entry)?.umid;
    if (umid === undefined) return undefined;
    latest.set(umid, decodeUtf8(entry)!);
    umids.push(umid);
  }
  return { latest, umids };
}

/** The entries to append: those of the UMIDs whose served state is not their latest entry, in UMID order. */
export function changedEntries(served: ReadonlyMap<string, string>, latest: ReadonlyMap<string, string>): Uint8Array[] {
  return [...served]
    .filter(([umid, entry]) => latest.get(umid) !== entry)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => utf8(entry));
}

/**
 * The UMIDs the log has entries for that the content (`served`, servedEntries) does not serve at all, in UMID order:
 * no entry can record that state. A UMID whose manifest the content check refuses is left to that refusal.
 */
export function unservedUmids(
  content: ContentCheck,
  served: ReadonlyMap<string, string>,
  latest: ReadonlyMap<string, string>,
): string[] {
  const refused = new Set(content.invalidClaims.map((claim) => claim.umid));
  return [...latest.keys()]
    .filter((umid) => !served.has(umid) && !refused.has(umid))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
