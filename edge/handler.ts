/**
 * The resolver: one web-standard function from `Request` to `Response` that answers the
 * whole HTTP contract (spec 4 and 7), and the status endpoint of EXT-OPT O2 (the status
 * of each UMID, at `STATUS_PREFIX/{UMID_PATH}`). It uses only Fetch and WebCrypto, so the same code
 * runs on Deno (Netlify), workerd (Cloudflare) and Node; adapters only supply a RecordStore.
 * It also serves the did:web documents the build published for keys on its own host, and the
 * transparency log the build published (edge/log-files.ts), and its status lists and discovery document
 * (edge/well-known-documents.ts).
 * Underneath, `answer` gives the same answer as plain data, for an adapter that can write
 * it without a Response (Node's).
 */
import { ifNoneMatchMatches } from "./conditional.ts";
import { descriptor } from "./descriptor.ts";
import { DID_DOCUMENT_NAME } from "./did-documents.ts";
import type { DocumentRecord } from "./document-table.ts";
import { LOG_FILES_PREFIX, logFileAt, type LogFileRecord } from "./log-files.ts";
import { wellKnownKind, type WellKnownKind } from "./well-known-documents.ts";
import type { RecordStore, ResolverRecord } from "./records.ts";
import {
  CONTRACT,
  DID_CONTENT_TYPE,
  didDocumentAnswer,
  JSON_CONTENT_TYPE,
  logFileAnswer,
  logFileNotModified,
  manifestAnswer,
  methodNotAllowed,
  notModified,
  preflight,
  statusAnswer,
  statusDocumentBytes,
  temporaryRedirect,
  toResponse,
  uncachedJson,
  wellKnownAnswer,
  wellKnownNotModified,
  type Answer,
} from "./responses.ts";
import { DESCRIPTOR_PATH, HEALTH_PATH, parseUmidPath, pathnameOf, STATUS_PREFIX } from "../core/umid-path.ts";

/**
 * What the handler reads of a request. Every Fetch `Request` is one; an adapter may pass a
 * lighter object of this shape (the Node adapter does, instead of building a Request).
 */
export interface ResolverRequest {
  method: string;
  /** Absolute, as `Request.url` is. */
  url: string;
  headers: { get(name: string): string | null };
}

export async function handleRequest(request: ResolverRequest, records: RecordStore): Promise<Response> {
  return toResponse(await answer(request, records));
}

export async function answer(request: ResolverRequest, records: RecordStore): Promise<Answer> {
  const method = request.method;
  // A preflight is answered whatever the path: a failed preflight would hide the real
  // status (400, 404, ...) of the request that follows from the page that sent it.
  if (method === "OPTIONS") return preflight();
  if (method !== "GET" && method !== "HEAD") return methodNotAllowed();
  const get = await answerGet(request, records);
  // HEAD: GET's status and headers, Content-Length included, and no body.
  return method === "HEAD" ? { ...get, body: null } : get;
}

async function answerGet(request: ResolverRequest, records: RecordStore): Promise<Answer> {
  const pathname = pathnameOf(request.url);
  if (pathname === HEALTH_PATH) return uncachedJson(200, { status: "ok", contract: CONTRACT });
  if (pathname === DESCRIPTOR_PATH) return uncachedJson(200, descriptor);
  // Every did:web document's path ends so; where none was published, the path is answered as any other (`/did.json`
  // is then UMID `did.json`'s).
  if (pathname.endsWith(DID_DOCUMENT_NAME)) {
    const document = await didDocument(pathname, request, records);
    if (document !== undefined) return document;
  }
  if (pathname.startsWith(LOG_FILES_PREFIX)) return logFile(pathname, request, records);
  const wellKnown = wellKnownKind(pathname);
  if (wellKnown !== undefined) return wellKnownDocument(wellKnown, pathname, request, records);

  // The status endpoint takes a UMID_PATH after its prefix as the resolve endpoint does.
  const forStatus = pathname === STATUS_PREFIX || pathname.startsWith(`${STATUS_PREFIX}/`);
  const parsed = parseUmidPath(forStatus ? pathname.slice(STATUS_PREFIX.length) : pathname);
  if ("error" in parsed) return uncachedJson(400, { error: "bad_request", message: parsed.error });
  const { umid } = parsed;

  let record: ResolverRecord | undefined;
  try {
    record = await records.get(umid);
  } catch (error) {
    console.error(`manifest-resolver: record lookup failed for ${JSON.stringify(umid)}:`, error);
    record = { kind: "corrupt" };
  }
  if (record?.kind === "corrupt") return uncachedJson(500, { error: "corrupt_record", umid });
  return forStatus ? statusOf(umid, record, request) : resolution(umid, record, request);
}

/** The did:web document published at `pathname`, or 304 for it; undefined when none is. */
async function didDocument(
  pathname: string,
  request: ResolverRequest,
  records: RecordStore,
): Promise<Answer | undefined> {
  const record = await documentRecord(() => records.didDocument(pathname), "the did:web documents");
  if (record === undefined) return undefined;
  if (record.kind === "corrupt") return uncachedJson(500, { error: "corrupt_record", path: pathname });
  if (ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag))
    return notModified(record.etag, DID_CONTENT_TYPE);
  return didDocumentAnswer(record.body, record.etag);
}

/** A document of a table the build published (edge/document-table.ts); `corrupt` when `what` cannot be read. */
async function documentRecord(
  read: () => Promise<DocumentRecord | undefined>,
  what: string,
): Promise<DocumentRecord | undefined> {
  try {
    return await read();
  } catch (error) {
    console.error(`manifest-resolver: ${what} cannot be read:`, error);
    return { kind: "corrupt" };
  }
}

/** The log's file at `pathname`, or 304 for it; 404 for any path the log serves nothing at. */
async function logFile(pathname: string, request: ResolverRequest, records: RecordStore): Promise<Answer> {
  const file = logFileAt(pathname.slice(LOG_FILES_PREFIX.length));
  let record: LogFileRecord | undefined;
  try {
    record = file && (await records.logFile(file.stored));
  } catch (error) {
    console.error(`manifest-resolver: the log's file ${file!.stored} cannot be read:`, error);
    return uncachedJson(500, { error: "corrupt_record", path: pathname });
  }
  if (file === undefined || record === undefined) return uncachedJson(404, { error: "not_found", path: pathname });
  if (ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag))
    return logFileNotModified(file.kind, record.etag);
  return logFileAnswer(file.kind, record.body, record.etag);
}

/** A status list or the discovery document published at `pathname`, or 304 for it; 404 where none is. */
async function wellKnownDocument(
  kind: WellKnownKind,
  pathname: string,
  request: ResolverRequest,
  records: RecordStore,
): Promise<Answer> {
  const record = await documentRecord(() => records.wellKnownDocument(pathname), "the status lists' table");
  if (record === undefined) return uncachedJson(404, { error: "not_found", path: pathname });
  if (record.kind === "corrupt") return uncachedJson(500, { error: "corrupt_record", path: pathname });
  if (ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag))
    return wellKnownNotModified(kind, record.etag);
  return wellKnownAnswer(kind, record.body, record.etag);
}

function resolution(
  umid: string,
  record: Exclude<ResolverRecord, { kind: "corrupt" }> | undefined,
  request: ResolverRequest,
): Answer {
  switch (record?.kind) {
    case undefined:
      return uncachedJson(404, { error: "not_found", umid });
    case "revoked":
      return uncachedJson(410, { error: "revoked", umid });
    case "redirect":
      return temporaryRedirect(record.location);
    case "manifest":
      return ifNoneMatchMatches(request.headers.get("If-None-Match"), record.etag)
        ? notModified(record.etag)
        : manifestAnswer(record.body, record.etag);
  }
}

/** O2.2: the status of a UMID this resolver publishes or revoked; a redirected one has none here. */
function statusOf(
  umid: string,
  record: Exclude<ResolverRecord, { kind: "corrupt" }> | undefined,
  request: ResolverRequest,
): Answer {
  if (record === undefined || record.kind === "redirect") return uncachedJson(404, { error: "not_found", umid });
  if (record.status === undefined) {
    console.error(
      `manifest-resolver: the record of ${JSON.stringify(umid)} has no status: it was ` +
        `stored by a build older than this handler`,
    );
    return uncachedJson(500, { error: "corrupt_record", umid });
  }
  const { etag } = record.status;
  if (ifNoneMatchMatches(request.headers.get("If-None-Match"), etag)) return notModified(etag, JSON_CONTENT_TYPE);
  return statusAnswer(statusDocumentBytes(umid, record.status), etag);
}
