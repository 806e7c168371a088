/**
 * Resolving `signature.statusRef` (EXT-OPT O2.1–O2.4; core §1.6.6) to the result the
 * evaluator records at Verify step 3 (core/evaluate/revocation.ts), with the answer's
 * cursor, by which the client orders it against the statuses it saw (status-memory.ts).
 *
 * O2.1: only over https: (or loopback http:, core/secure-url.ts), redirects included; a
 * cached document is used without a request while younger than its `nextCheck` (default
 * PT10M, at most a day: core/status/status-document.ts) and not older than the manifest's `revocationCursor`; otherwise
 * it is revalidated with `If-None-Match: <its ETag>, "<its cursor>"` (a 304: still current), or, when
 * its cursor is older than that floor, requested unconditionally. O2.2: a 200 must be
 * `application/json` and a status document for this manifest's `@id`.
 *
 * Why a status is "unchecked" (registry codes; the evaluator records the code as
 * `revocationReason` and as a warning, never a rejection, O2.4):
 *   um:reason:status:endpoint-unknown-manifest  the endpoint answered 404 (O2.4)
 *   um:reason:status:endpoint-unavailable       503, no answer, a timeout, too many redirects (O2.4)
 *   um:reason:status:http-<status>              any other answer (O2.4: "the HTTP status code in the reason")
 * um:reason:status:insecure-ref               statusRef, or a redirect from it, is not https: (O2.1: "treat as
 * unreachable")
 *   um:reason:status:invalid-response           not application/json, or not a status document (O2.2)
 *   um:reason:status:manifest-mismatch          a status document for another manifestId (O2.2: "MUST match")
 *   um:reason:status:local-address              statusRef, or a redirect from it, on a local or private address
 *                                               the resolver is not on (core/secure-url.ts; status-sources.ts)
 *   um:reason:status:not-listed                 for a manifest with no statusRef, the resolver's own status
 *                                               endpoint (`listing`, status-sources.ts) answered 404: recorded
 *                                               as revocationReason only, with no warning (rule status/not-listed)
 * A policy that requires an active status (§1.6.6) rejects on `revocationStatus !== "active"` itself.
 */
import type { Warning } from "../evaluate/receipt.ts";
import type { Revocation } from "../evaluate/revocation-input.ts";
import { excerpt, quoted } from "../excerpt.ts";
import type { RuleId } from "../rules/index.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { mediaTypeOf } from "../media-type.ts";
import {
  cursorAtLeast,
  DEFAULT_NEXT_CHECK,
  durationSeconds,
  MAX_NEXT_CHECK_SECONDS,
  orderingCursor,
  readStatusDocument,
  STATUS_DOCUMENT_MAX_BYTES,
  type ManifestStatus,
  type StatusDocument,
} from "../status/status-document.ts";
import { cachedGet, type Freshness, type Got } from "../http/conditional-get.ts";
import type { Transport } from "../http/fetch-following.ts";
import { storedWithin, type CachedEntry, type HttpCache } from "../http/http-cache.ts";

const DEFAULT_NEXT_CHECK_SECONDS = durationSeconds(DEFAULT_NEXT_CHECK)!;

export interface StatusRequest {
  /** The evaluation clock, milliseconds since 1970. */
  now: number;
  cache: HttpCache | undefined;
  transport: Transport;
  /** Follow no redirect to another origin than the statusRef's (it was allowed by its origin: status-sources.ts). */
  sameOrigin?: boolean;
}

/**
 * A status as it was read: its value, since when and why, when what answered says (a status document's `updatedAt`
 * and `reason`; a status list's `validFrom`), and the URL that answered.
 */
export interface AnsweredStatus {
  value: ManifestStatus;
  /** The status document's `updatedAt`, or the status list's `validFrom`: when the status began, or as of when. */
  since?: string;
  /** The status document's `reason`, in the publisher's words. */
  reason?: string;
  /** The status document or status list that answered, after any redirects. */
  url: string;
}

/** What a status endpoint answered: the status for the evaluator, and the cursor of a status document. */
export interface StatusAnswer {
  revocation: Revocation;
  /** The status read, when one was (never for "unchecked"). */
  answered?: AnsweredStatus;
  /**
   * The cursor that orders this answer among the endpoint's (orderingCursor, core/status/status-document.ts); absent when no document
   * came.
   */
  cursor?: string;
}

/**
 * What the status endpoint at `statusRef` answers for `manifest` (a statusRef into a status list is read by
 * status-list-resolution.ts). With `listing`, `statusRef` is the resolver's own status endpoint for a manifest that
 * names none: a 404 there says the resolver lists no status (`um:reason:status:not-listed`), not that a status the
 * signer named is missing.
 */
export async function endpointStatus(
  statusRef: string,
  manifest: Record<string, unknown>,
  request: StatusRequest,
  listing = false,
): Promise<StatusAnswer> {
  const floor = revocationFloor(manifest);
  const got = await cachedGet({
    url: statusRef,
    accept: "application/json",
    maxBytes: STATUS_DOCUMENT_MAX_BYTES,
    ...request,
    judge: (entry) => judge(entry, floor, request.now),
  });
  if (listing && got.kind === "status" && got.status === 404)
    return {
      revocation: {
        ...unchecked(
          "not-listed",
          `the manifest names no statusRef, and the resolver's status endpoint ${got.url} lists none for it (404)`,
          "status/not-listed",
        ).revocation,
        withoutWarning: true,
      },
    };
  if (got.kind !== "entry") return unanswered(got, "status endpoint", STATUS_DOCUMENT_MAX_BYTES);
  const document = documentOf(got.entry);
  if ("problem" in document)
    return unchecked("invalid-response", `status endpoint ${got.entry.url}: ${document.problem}`);
  if (document.manifestId !== manifest["@id"]) {
    return unchecked(
      "manifest-mismatch",
      `status endpoint ${got.entry.url} answers for manifestId ` +
        `${quoted(document.manifestId)}, not for this manifest, ` +
        `${quoted(manifest["@id"])}`,
    );
  }
  await got.save();
  const cursor = orderingCursor(document);
  const resolvedBy = got.entry.url;
  const answered: AnsweredStatus = {
    value: document.status,
    since: document.updatedAt,
    ...(document.reason !== undefined && { reason: document.reason }),
    url: resolvedBy,
  };
  if (document.status === "active") return { revocation: { status: "active", resolvedBy }, answered, cursor };
  const since = `${document.status} since ${excerpt(document.updatedAt)}`;
  return {
    revocation: {
      status: document.status,
      resolvedBy,
      message:
        `status endpoint ${got.entry.url}: the manifest is ` +
        `${since}${document.reason === undefined ? "" : ` (${excerpt(document.reason)})`}`,
    },
    answered,
    cursor,
  };
}

/** O2.1: the manifest's `signature.revocationCursor`, the floor a kept answer must not be older than. */
export function revocationFloor(manifest: Record<string, unknown>): string | undefined {
  const signature = isJsonObject(manifest.signature) ? manifest.signature : {};
  return typeof signature.revocationCursor === "string" ? signature.revocationCursor : undefined;
}

export function unchecked(code: string, message: string, rule?: RuleId): StatusAnswer {
  return {
    revocation: { status: "unchecked", code: `um:reason:status:${code}`, message, ...(rule !== undefined && { rule }) },
  };
}

/** Why `what` (a status endpoint, a status list) gave no body to read (O2.1, O2.4). */
export function unanswered(got: Exclude<Got, { kind: "entry" }>, what: string, maxBytes: number): StatusAnswer {
  switch (got.kind) {
    case "insecure":
      if (got.inward === true)
        return unchecked("local-address", `statusRef not resolved: ${got.reason}`, "status/local-address");
      return got.crossOrigin === true
        ? unchecked("origin-not-allowed", `statusRef not resolved: ${got.reason}`, "status/origin-not-allowed")
        : unchecked("insecure-ref", `statusRef not resolved: ${got.reason} (EXT-OPT O2.1: treated as unreachable)`);
    case "unreachable":
      return unchecked("endpoint-unavailable", `${what} unavailable: ${got.reason}`);
    case "status": {
      const code =
        got.status === 404
          ? "endpoint-unknown-manifest"
          : got.status === 503
            ? "endpoint-unavailable"
            : `http-${got.status}`;
      return unchecked(code, `${what} ${got.url} answered ${got.status}`);
    }
    case "raw":
      return unchecked(
        "invalid-response",
        `${what} ${got.url} answered a body that is not UTF-8 or is over ${maxBytes} bytes`,
      );
  }
}

/**
 * O2.1: fresh while younger than nextCheck and not older than the floor; unless older than
 * the floor, revalidated by its cursor (O2.1: a status endpoint SHOULD make it its ETag)
 * and by the ETag it came with (ours is the digest of the document, which a changed reason
 * changes too: edge/responses.ts): either one matching is a 304.
 */
function judge(entry: CachedEntry, floor: string | undefined, now: number): Freshness {
  const document = documentOf(entry);
  if ("problem" in document) return { fresh: false, validator: undefined };
  const { cursor, nextCheck } = document;
  if (floor !== undefined && (cursor === undefined || !cursorAtLeast(cursor, floor)))
    return { fresh: false, validator: undefined };
  const seconds = Math.min(
    (nextCheck === undefined ? undefined : durationSeconds(nextCheck)) ?? DEFAULT_NEXT_CHECK_SECONDS,
    MAX_NEXT_CHECK_SECONDS,
  );
  const validators = new Set(
    [entry.etag, cursor !== undefined && ENTITY_TAG_TEXT.test(cursor) ? `"${cursor}"` : undefined].filter(
      (tag) => tag !== undefined,
    ),
  );
  return {
    fresh: storedWithin(entry, seconds, now),
    validator: validators.size === 0 ? undefined : [...validators].join(", "),
  };
}

/** What an entity-tag may hold (RFC 9110 §8.8.3, less obs-text): a cursor outside it cannot be sent as one. */
const ENTITY_TAG_TEXT = /^[\x21\x23-\x7e]*$/;

/** The status document an entry holds (O2.1: `application/json`; O2.2: its schema), or why it holds none. */
function documentOf(entry: CachedEntry): StatusDocument | { problem: string } {
  if (mediaTypeOf(entry.contentType) !== "application/json")
    return {
      problem:
        `the status response is ` +
        `${entry.contentType === undefined ? "of no content type" : `of type ${JSON.stringify(entry.contentType)}`}, ` +
        `not application/json`,
    };
  return readStatusDocument(entry.body);
}

/** `answer` with `warnings` added to those its revocation carries. */
export function withWarnings(answer: StatusAnswer, warnings: readonly Warning[]): StatusAnswer {
  if (warnings.length === 0) return answer;
  const { revocation } = answer;
  return { ...answer, revocation: { ...revocation, warnings: [...(revocation.warnings ?? []), ...warnings] } };
}
