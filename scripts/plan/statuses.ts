/**
 * The status the build records for each UMID it publishes or revokes (EXT-OPT O2.2, O2.3),
 * from `_routes.json` and the manifests. `updatedAt` is when the current status began:
 * - revoked: the entry's `revokedAt`;
 * - suspended: the entry's `suspendedAt`;
 * - active after a suspension: the later of the entry's `reinstatedAt` and the manifest's
 *   `issuedAt`;
 * - active otherwise: the manifest's `issuedAt` (a new manifest instance is active from
 *   its issuance).
 * An entry without its date (check warns) dates its status 1970-01-01. Instants are
 * written in UTC, to the millisecond, whatever offset the source used. The index records
 * each status with the ETag of the status document the edge makes of it (`withEtag`).
 */
import { bodyEtag } from "../body-etag.ts";
import type { StatusEntry, StatusWithEtag } from "../../edge/records.ts";
import { statusDocumentBytes } from "../../edge/responses.ts";
import { instant } from "../../core/date-time.ts";
import { UNDATED, type RouteStatus } from "../check/routes.ts";

export function publishedStatus(issuedAt: number, route: RouteStatus | undefined, nextCheck: string): StatusEntry {
  if (route?.list === "suspended") return dated("suspended", instant(route.at), route.reason, nextCheck);
  const reinstated = route?.list === "reinstated" ? (instant(route.at) ?? NaN) : NaN;
  // Math.max gives NaN if either is NaN: take whichever is known.
  const since = [issuedAt, reinstated].filter((ms) => !Number.isNaN(ms));
  return dated("active", since.length === 0 ? undefined : Math.max(...since), undefined, nextCheck);
}

export function revokedStatus(route: RouteStatus | undefined, nextCheck: string): StatusEntry {
  return dated("revoked", instant(route?.at), route?.reason, nextCheck);
}

/** `status` with the ETag of `umid`'s status document: the digest of exactly the bytes the edge serves. */
export function withEtag(umid: string, status: StatusEntry): StatusWithEtag {
  return { ...status, etag: bodyEtag(statusDocumentBytes(umid, status)) };
}

function dated(
  status: StatusEntry["status"],
  at: number | undefined,
  reason: string | undefined,
  nextCheck: string,
): StatusEntry {
  return {
    status,
    updatedAt: at === undefined ? UNDATED : new Date(at).toISOString(),
    ...(reason !== undefined && { reason }),
    nextCheck,
  };
}
