/**
 * The log's entries (issue 26, section 1): what the resolver serves for a UMID, as the JCS
 * bytes of `{umid, state, sha256}` for a served body (active or suspended; `sha256` the
 * unpadded base64url SHA-256 of the exact body), `{umid, state: "revoked"}`, or
 * `{umid, state: "redirected", location}`. Parsing takes nothing else: an entry is read
 * back only as the log writes it, byte for byte. That round trip is also why JSON.parse
 * is strict enough here, and it is several times faster than the strict parser over a
 * log's every entry: a duplicate member, a number or an escape spelt otherwise than JCS
 * spells it would not write back as the same text.
 *
 * Every check, build and log writes or reads an entry per UMID, so an entry's JCS text is
 * spelt here by hand: its members in JCS order, each string as JSON.stringify writes it,
 * which is JCS's own spelling of a well-formed string (RFC 8785 §3.2.2.2). A string with
 * a lone surrogate, which JCS refuses, goes through canonicalize to be refused there: an
 * entry read from bytes with one is refused before (parseLogEntry), never thrown.
 */
import { decodeUtf8, utf8 } from "../base64url.ts";
import { canonicalize } from "../crypto/jcs.ts";
import { isJsonObject } from "../json/strict-json.ts";

export type LogEntry =
  | { umid: string; state: "active" | "suspended"; sha256: string }
  | { umid: string; state: "revoked" }
  | { umid: string; state: "redirected"; location: string };

export function formatLogEntry(entry: LogEntry): Uint8Array {
  return utf8(logEntryText(entry));
}

/** The entry's JCS text. */
export function logEntryText(entry: LogEntry): string {
  const { umid, state } = entry;
  const strings = [umid, "sha256" in entry ? entry.sha256 : "", "location" in entry ? entry.location : ""];
  if (strings.some((text) => LONE_SURROGATE.test(text))) return canonicalize(entry);
  const tail = `"state":"${state}","umid":${JSON.stringify(umid)}}`;
  if ("sha256" in entry) return `{"sha256":${JSON.stringify(entry.sha256)},${tail}`;
  if ("location" in entry) return `{"location":${JSON.stringify(entry.location)},${tail}`;
  return `{${tail}`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The entry these bytes are, or undefined when they are not one the log writes. */
export function parseLogEntry(bytes: Uint8Array): LogEntry | undefined {
  const text = decodeUtf8(bytes);
  const value = text === undefined ? undefined : parsedOrUndefined(text);
  const entry = isJsonObject(value) ? entryOf(value) : undefined;
  return entry !== undefined && logEntryText(entry) === text ? entry : undefined;
}

/**
 * The entry an object's members make, whatever their order and spelling; undefined for any other member, and for a
 * string with a lone surrogate (an escape such as `\ud800` puts one there), which no entry JCS writes holds.
 */
function entryOf({ umid, state, ...rest }: Record<string, unknown>): LogEntry | undefined {
  if (typeof umid !== "string") return undefined;
  if ([umid, ...Object.values(rest)].some((value) => typeof value === "string" && !value.isWellFormed()))
    return undefined;
  const members = Object.keys(rest).join(",");
  if ((state === "active" || state === "suspended") && members === "sha256" && typeof rest.sha256 === "string")
    return { umid, state, sha256: rest.sha256 };
  if (state === "revoked" && members === "") return { umid, state };
  if (state === "redirected" && members === "location" && typeof rest.location === "string")
    return { umid, state, location: rest.location };
  return undefined;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
