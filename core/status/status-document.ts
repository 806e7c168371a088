/**
 * Manifest-instance status (EXT-OPT O2; core §3.4): the status document a resolver serves
 * at `statusRef`, shared by the edge that serves it and the client that reads it.
 *
 * The `cursor` (O2.2: opaque; O2.1: compared with `signature.revocationCursor`) is, here,
 * the instant the current status began (`updatedAt`) as 16 decimal digits of milliseconds
 * since 1970-01-01T00:00:00Z. It is therefore the same in every build of the same content
 * (caches stay valid), and it strictly increases at each status change as long as each
 * change is dated later than the one before, which `revoke`, `suspend` and `reinstate`
 * ensure. Fixed width makes string order numeric order.
 */
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import { instant, isDateTime } from "../date-time.ts";

export const MANIFEST_STATUSES = ["active", "revoked", "suspended"] as const;
export type ManifestStatus = (typeof MANIFEST_STATUSES)[number];

/** O2.2 schema: the response of a status endpoint. */
export interface StatusDocument {
  manifestId: string;
  status: ManifestStatus;
  updatedAt: string;
  reason?: string;
  cursor?: string;
  nextCheck?: string;
}

/** O2.2: "an ISO 8601 duration, e.g. PT1H"; ours unless configured otherwise. */
export const DEFAULT_NEXT_CHECK = "PT10M";

/**
 * The longest a status is kept without asking again, whatever `nextCheck` says (O2.1:
 * SHOULD respect it, not must): one misconfigured or forged `P36500D` must not pin a
 * status in every relying party's cache for a century. A publisher's setting is held to it too.
 */
export const MAX_NEXT_CHECK_SECONDS = 86_400;

const CURSOR_DIGITS = 16;

/** The cursor of a status that began at `updatedAt` (an RFC 3339 date-time). */
export function statusCursor(updatedAt: string): string {
  const ms = instant(updatedAt);
  if (ms === undefined) throw new RangeError(`not an RFC 3339 date-time: ${updatedAt}`);
  return String(Math.max(0, ms)).padStart(CURSOR_DIGITS, "0");
}

/**
 * The cursor by which a client orders the statuses one endpoint gives: the document's own
 * where it is of our form (ordered), else that of its `updatedAt`. Another endpoint's
 * cursor is opaque (O2.2): "v10" is not newer than "v9" by any rule a client can know.
 */
export function orderingCursor(document: StatusDocument): string {
  return document.cursor !== undefined && OUR_CURSOR.test(document.cursor)
    ? document.cursor
    : statusCursor(document.updatedAt);
}

const OUR_CURSOR = new RegExp(`^\\d{${CURSOR_DIGITS}}$`);

/**
 * Whether a status with cursor `cursor` is at least as recent as `floor` (O2.1's
 * `revocationCursor`). Only cursors of our form can be ordered; any other pair must be
 * equal, and otherwise counts as older: the caller then revalidates, which is always safe.
 */
export function cursorAtLeast(cursor: string, floor: string): boolean {
  if (cursor === floor) return true;
  const ours = /^\d+$/;
  return ours.test(cursor) && ours.test(floor) && cursor.length === floor.length && cursor > floor;
}

/**
 * Whether a status with cursor `cursor` is strictly more recent than one with `than`: at least as recent, and not the
 * same.
 */
export function cursorNewer(cursor: string, than: string): boolean {
  return cursor !== than && cursorAtLeast(cursor, than);
}

/**
 * Seconds of an ISO 8601 duration of days, hours, minutes and seconds (`P1D`, `PT10M`,
 * `PT1H30M`, `PT0.5S`), or undefined for any other form. Years, months and weeks have no
 * fixed length, so they are not read: a caller then falls back to its default.
 */
export function durationSeconds(duration: string): number | undefined {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(duration);
  if (match === null || duration === "P" || duration.endsWith("T")) return undefined;
  const [, days, hours, minutes, seconds] = match;
  return Number(days ?? 0) * 86400 + Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
}

/** A status document is a few hundred bytes: the most a client reads of one. */
export const STATUS_DOCUMENT_MAX_BYTES = 64 * 1024;
/** A status document is one flat object; members it does not name may nest, within these bounds. */
const STATUS_DOCUMENT_SHAPE = { maxDepth: 10, maxArrayItems: 1000 };

/**
 * The one reader of a served status document's text, for every side that reads one: the relying party's client
 * (client/status-resolution.ts), `probe` and the lookup page (scripts/): parsed strictly (core/json/strict-json.ts),
 * then held to O2.2 (statusDocumentOf).
 */
export function readStatusDocument(text: string): StatusDocument | { problem: string } {
  const parsed = parseJson(text, STATUS_DOCUMENT_SHAPE);
  return parsed.ok
    ? statusDocumentOf(parsed.value)
    : { problem: `the status response is not JSON: ${parsed.problem.message}` };
}

/** The status document in `value`, or why it is not one (O2.2). */
function statusDocumentOf(value: unknown): StatusDocument | { problem: string } {
  if (!isJsonObject(value)) return { problem: "the status response is not a JSON object" };
  const { manifestId, status, updatedAt, reason, cursor, nextCheck } = value;
  if (typeof manifestId !== "string") return { problem: "the status response has no manifestId" };
  if (typeof status !== "string" || !(MANIFEST_STATUSES as readonly string[]).includes(status))
    return { problem: `the status response's status is not one of ${MANIFEST_STATUSES.join(", ")}` };
  // Strictly RFC 3339 (O2.2), not whatever Date.parse reads: it is quoted in receipts.
  if (!isDateTime(updatedAt)) return { problem: "the status response's updatedAt is not an RFC 3339 date-time" };
  for (const [name, member] of Object.entries({ reason, cursor, nextCheck })) {
    if (member !== undefined && typeof member !== "string")
      return { problem: `the status response's ${name} is not a string` };
  }
  return value as unknown as StatusDocument;
}
