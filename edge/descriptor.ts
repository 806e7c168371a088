/**
 * The body of `GET /.well-known/manifest-resolver.json` (spec 4.2), including the caching
 * and privacy posture the spec says the descriptor states.
 */
import { CACHE_NONE, CONTRACT } from "./responses.ts";
import { CACHE_IMMUTABLE, CACHE_LOG_EDGE, CACHE_RESOLVED, CACHE_WELL_KNOWN } from "../core/served-kinds.ts";
import {
  B64U_PREFIX,
  DESCRIPTOR_PATH,
  HEALTH_PATH,
  LOG_PREFIX,
  PROOF_PREFIX,
  RESOLVERS_PATH,
  STATUS_LIST_PREFIX,
  STATUS_PREFIX,
  TLOG_PROOF_RELATION,
} from "../core/umid-path.ts";

const RESOLVER_NAME = "manifest-resolver";
export const KV_BINDING = "UM_RECORDS";

export const descriptor = {
  contract: CONTRACT,
  resolver: RESOLVER_NAME,
  umidPathRule: [
    "UMID_PATH is exactly one path segment; an extra '/'-separated segment is an error",
    "direct mode (default): the segment is percent-decoded and taken as the UMID",
    `${B64U_PREFIX} mode: the rest of the segment is unpadded base64url of the ` +
      `UMID's UTF-8 bytes; use it for UMIDs containing '/' or other characters that ` +
      `conflict with path syntax, and for the UMIDs '.', '..' and 'health'`,
  ],
  kv: { binding: KV_BINDING, keyPattern: "um:{UMID}" },
  endpoints: {
    health: HEALTH_PATH,
    descriptor: DESCRIPTOR_PATH,
    resolve: "/{UMID_PATH}",
    status: `${STATUS_PREFIX}/{UMID_PATH}`,
    log:
      `${LOG_PREFIX}/: the transparency log, as C2SP tlog-tiles serves one (checkpoint, tile/<L>/<N>[.p/<W>], ` +
      "tile/entries/<N>[.p/<W>]) with the latest map's buckets at latest/<size>/<bucket>, when the publisher " +
      "keeps a log (404 otherwise); its verifier key is not served: get it from the publisher",
    proof:
      `${PROOF_PREFIX}/{UMID_PATH}: the C2SP tlog-proof of the UMID's latest log entry, its extra data the JCS ` +
      '{"bucket":<its latest-map bucket file>,"entry":"<the entry>"}; 404 without a log or an entry; a manifest ' +
      `answer links to it: Link rel="${TLOG_PROOF_RELATION}"`,
    statusList:
      `${STATUS_LIST_PREFIX}/<listId>: a W3C BitstringStatusListCredential (statusPurpose message, statusSize 2: ` +
      "0x0 active, 0x1 suspended, 0x2 revoked), for statusRefs <list URL>#<index>; 404 for a list not published",
    resolvers: `${RESOLVERS_PATH}: the discovery document of EXT-OPT O5 (this resolver's DID, its peers), if published`,
  },
  methods: ["GET", "HEAD", "OPTIONS"],
  caching: {
    resolved: CACHE_RESOLVED,
    redirect: CACHE_RESOLVED,
    errors: CACHE_NONE,
    health: CACHE_NONE,
    descriptor: CACHE_NONE,
    preflight: CACHE_NONE,
    status: CACHE_RESOLVED,
    log:
      `checkpoint and partial tiles: ${CACHE_LOG_EDGE}; full tiles, entry bundles and bucket files: ` +
      `${CACHE_IMMUTABLE}; ETag: the digest of the file's bytes`,
    proof: `${CACHE_LOG_EDGE}, as the checkpoint it holds; ETag: the digest of the proof's bytes`,
    statusList: CACHE_WELL_KNOWN,
    resolvers: CACHE_WELL_KNOWN,
    statusDocument:
      "EXT-OPT O2.2: {manifestId, status, updatedAt, reason?, cursor, nextCheck}; " +
      "cursor strictly increases at each status change (16 digits: milliseconds from " +
      "1970 to updatedAt); the ETag is not the cursor but, as for every body, the " +
      "document's digest: a reason may change while the cursor stays",
    etag:
      'weak, W/"sha256-<base64url SHA-256 of the response body>", computed when the ' +
      "content was built (for a status document read from Workers KV: when the Worker " +
      "first reads the record)",
    conditionalRequests:
      "If-None-Match (weak comparison, lists and *) answers 304 with the same ETag and Cache-Control",
    expiry:
      "HTTP freshness is not manifest validity: consumers must reject a manifest past " +
      "its expiresAt whatever the cache state",
  },
  privacy: {
    access: "public: every resolved manifest is readable by anyone; no credentials, no authenticated resolution",
    cookies: "none set or read",
    requestData: "the handler keeps no record of requests; the hosting platform's own access logs apply",
    umid: "UMIDs are opaque identifiers and must not contain personal data",
  },
} as const;
