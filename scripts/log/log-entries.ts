/**
 * The entries the content calls for (issue 26, section 1), taken from the content check,
 * the build's own reading of the content, so that the log records exactly what `build`
 * serves: a served body's SHA-256 is the one its ETag carries.
 */
import { decodeUtf8, encodeBase64url, utf8 } from "../../core/base64url.ts";
import { type LogEntry, logEntryText, parseLogEntry } from "../../core/tlog/log-entry.ts";
import { isRevival } from "../../core/tlog/permanent-revocation.ts";
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
}

/** Why entries read are no log this tool writes: `index` is the entry's in the log, in the bundle at `path`. */
export type LoggedFault =
  | { reason: "malformed"; path: string; index: number }
  /** The entry logs a state after the UMID's logged revocation (core/tlog/permanent-revocation.ts). */
  | { reason: "revival"; path: string; index: number; entry: LogEntry };

/**
 * What a log's entries say, read bundle by bundle in log order as an audit proves them (auditLog's visit): each UMID's
 * latest entry and the UMIDs in order, not the entries themselves. With `since`, also each UMID's latest entry among
 * the first `since` entries. With `from`, the reading goes on from an earlier one: `latest` is what the first `from`
 * entries said, and the entries read are the log's from index `from` on.
 */
export class LoggedReader implements LoggedEntries {
  /** The UMID of each entry read, in log order. */
  readonly umids: string[] = [];
  /** The first entry found that this tool's log never holds; undefined while there is none. */
  fault: LoggedFault | undefined;
  /** Each UMID's latest entry among the first `since` entries, once they are read. */
  latestSince: Map<string, string> | undefined;

  constructor(
    private readonly since = 0,
    readonly latest = new Map<string, string>(),
    private readonly from = 0,
  ) {
    if (since === from) this.latestSince = new Map(latest);
  }

  /** Reads the entries of the bundle at `path`; false, with `fault` set, at the first that no log of ours holds. */
  read(entries: readonly Uint8Array[], path: string): boolean {
    for (const bytes of entries) {
      const index = this.from + this.umids.length;
      const entry = parseLogEntry(bytes);
      if (entry === undefined) {
        this.fault = { reason: "malformed", path, index };
        return false;
      }
      const previous = this.latest.get(entry.umid);
      if (isRevival(previous === undefined ? undefined : parseLogEntry(utf8(previous)), entry)) {
        this.fault = { reason: "revival", path, index, entry };
        return false;
      }
      this.latest.set(entry.umid, decodeUtf8(bytes)!);
      this.umids.push(entry.umid);
      if (index + 1 === this.since) this.latestSince = new Map(this.latest);
    }
    return true;
  }
}

/**
 * The UMIDs whose served entry would follow their logged revocation, in UMID order: no entry may record that state
 * (revocation is permanent), so `log` refuses it as the gate does.
 */
export function revivedUmids(served: ReadonlyMap<string, string>, latest: ReadonlyMap<string, string>): string[] {
  return [...served]
    .filter(([umid, entry]) => {
      const logged = latest.get(umid);
      // The state logged, served again, revives nothing: most UMIDs, compared without parsing either.
      return (
        logged !== undefined && logged !== entry && isRevival(parseLogEntry(utf8(logged)), parseLogEntry(utf8(entry))!)
      );
    })
    .map(([umid]) => umid)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
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
