/**
 * The resolve path rules of the contract (spec 4.3): `/{UMID_PATH}` is exactly one segment,
 * either percent-encoded UMID text (direct mode) or `b64u:` followed by the unpadded
 * base64url of the UMID's UTF-8 bytes.
 */
import { decodeBase64url, decodeUtf8, encodeBase64url, utf8 } from "./base64url.ts";

export const B64U_PREFIX = "b64u:";
export const HEALTH_PATH = "/health";
export const DESCRIPTOR_PATH = "/.well-known/manifest-resolver.json";
/** The status endpoint (EXT-OPT O2): this prefix, then a UMID_PATH as the resolve endpoint takes it. */
export const STATUS_PREFIX = "/.well-known/manifest-resolver/status";
/**
 * The status lists (issue 27): each list's BitstringStatusListCredential at this prefix,
 * then `/<list id>`; a statusRef into one adds `#<index>`.
 */
export const STATUS_LIST_PREFIX = "/.well-known/manifest-resolver/status-list";
/** The federation discovery document (EXT-OPT O5): the resolver's DID and its peers. */
export const RESOLVERS_PATH = "/.well-known/um-resolvers";
/** The transparency log (issue 26): its checkpoint, tiles and latest-map buckets, under this prefix. */
export const LOG_PREFIX = "/.well-known/manifest-resolver/log";
/**
 * Offline proofs (issue 41): the C2SP tlog-proof of a UMID's latest log entry at this prefix, then a UMID_PATH as the
 * resolve endpoint takes it (edge/log-proof.ts). No file of the log is named `proof`, so the paths never meet.
 */
export const PROOF_PREFIX = `${LOG_PREFIX}/proof`;
/**
 * The relation of a manifest answer's `Link` to its proof: an extension relation type (RFC 8288 §2.1.2), a URI since
 * no registered relation names a transparency log proof; the URI is the C2SP spec of the format.
 */
export const TLOG_PROOF_RELATION = "https://c2sp.org/tlog-proof";

/** The URL of the log a resolver at `baseUrl` serves, ending in a slash: its files' paths follow. */
export function logUrlOf(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${LOG_PREFIX}/`;
}

/** The five 400 messages of spec 4.3, verbatim. */
export type BadRequestMessage =
  | "missing UMID"
  | "unexpected extra path segments"
  | "invalid b64u UMID encoding"
  | "invalid UMID encoding"
  | "empty UMID";

export type ParsedUmidPath = { umid: string } | { error: BadRequestMessage };

/**
 * One path segment of characters that URL parsing leaves as they are (unreserved,
 * sub-delimiters, `:`, `@`, `%`), not starting with `.` or `%2` (dot segments, `%2e`).
 */
const PLAIN_SEGMENT_PATH = /^\/(?![.]|%2)[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;

/**
 * The pathname of an absolute URL, as `new URL(url).pathname` gives it. Parsing a URL is
 * the costliest step of a warm request, and the usual resolve path is one plain segment
 * that parsing would leave untouched: that path is taken as it is; any other goes through
 * the URL parser, which normalizes it.
 */
export function pathnameOf(url: string): string {
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return PLAIN_SEGMENT_PATH.test(path) ? path : new URL(url).pathname;
}

/** Parses a URL pathname (still percent-encoded, as `URL.pathname` keeps it). */
export function parseUmidPath(pathname: string): ParsedUmidPath {
  const segment = pathname.startsWith("/") ? pathname.slice(1) : pathname;
  if (segment === "") return { error: "missing UMID" };
  if (segment.includes("/")) return { error: "unexpected extra path segments" };

  if (segment.startsWith(B64U_PREFIX)) {
    const encoded = segment.slice(B64U_PREFIX.length);
    if (encoded === "") return { error: "empty UMID" };
    const bytes = decodeBase64url(encoded);
    const umid = bytes && decodeUtf8(bytes);
    return umid === undefined ? { error: "invalid b64u UMID encoding" } : { umid };
  }

  try {
    return { umid: decodeURIComponent(segment) };
  } catch {
    return { error: "invalid UMID encoding" };
  }
}

/**
 * Why no resolver can be asked for `umid`, or undefined when one can: an empty UMID's path
 * is `/` ("missing UMID"), and a lone surrogate has no UTF-8 form for a path to carry
 * (percent-encoding throws on it; base64url of its UTF-8 would ask for U+FFFD instead).
 */
export function umidProblem(umid: string): string | undefined {
  if (umid === "") return "is empty";
  if (!umid.isWellFormed()) return "holds a lone surrogate, which no UTF-8 path can carry";
  return undefined;
}

/**
 * The path that resolves `umid`. Direct mode is used unless the UMID cannot survive it:
 * URL parsers collapse `.` and `..` segments, `health` is the health endpoint, a leading
 * `b64u:` would switch modes, and a `/` (even as `%2F`) is decoded into a segment break by
 * some hosts and proxies (the contract asks for `b64u:` then). `mode: "b64u"` forces the
 * base64url form.
 */
export function umidPath(umid: string, mode: "auto" | "b64u" = "auto"): string {
  const direct =
    mode === "auto" &&
    umid !== "." &&
    umid !== ".." &&
    umid !== "health" &&
    !umid.startsWith(B64U_PREFIX) &&
    !umid.includes("/");
  return `/${direct ? encodeURIComponent(umid) : B64U_PREFIX + encodeBase64url(utf8(umid))}`;
}

/** The path of `umid`'s status document. */
export function statusPath(umid: string, mode: "auto" | "b64u" = "auto"): string {
  return STATUS_PREFIX + umidPath(umid, mode);
}
