/**
 * The BitstringStatusListCredential (VC Bitstring Status List v1.0 §2.2; VC Data Model 2.0)
 * a resolver publishes for each of its status lists, and what a relying party reads of
 * one. The purpose is `message` with `statusSize` 2, and `statusMessage` says what each
 * value means: 0x0 active, 0x1 suspended, 0x2 revoked, 0x3 undefined (the Recommendation's
 * word for a value kept for later). A reader takes the meaning of a value from the list's
 * own `statusMessage`, so it reads any publisher's list that names the three statuses.
 */
import { isJsonObject } from "../json/strict-json.ts";
import { MANIFEST_STATUSES, type ManifestStatus } from "../status/status-document.ts";
import { isDateTime } from "../date-time.ts";
import { STATUS_SIZE, type StatusCode } from "./bitstring.ts";

const CREDENTIALS_V2_CONTEXT = "https://www.w3.org/ns/credentials/v2";
const STATUS_LIST_CREDENTIAL_TYPE = "BitstringStatusListCredential";

/** What each value of an entry means, in the Recommendation's form (§2.1 statusMessage). */
const STATUS_MESSAGES: readonly { status: string; message: string }[] = [
  { status: "0x0", message: "active" },
  { status: "0x1", message: "suspended" },
  { status: "0x2", message: "revoked" },
  { status: "0x3", message: "undefined" },
];

/** The value of each status in the lists this resolver publishes. */
export const STATUS_CODES: Readonly<Record<ManifestStatus, StatusCode>> = { active: 0, suspended: 1, revoked: 2 };

export interface StatusListFields {
  /** The list's URL: the credential's `id`, and what every statusRef into it names before `#`. */
  url: string;
  /** A URL or DID: the key's did:key when the list is signed, else the resolver. */
  issuer: string;
  /** When the list's current state began (RFC 3339). */
  validFrom: string;
  /** Milliseconds a relying party may keep the list before asking again (§2.2 `ttl`). */
  ttlMs: number;
  encodedList: string;
}

/** The unsigned credential, members in the Recommendation's order. */
export function statusListCredential(fields: StatusListFields): Record<string, unknown> {
  return {
    "@context": [CREDENTIALS_V2_CONTEXT],
    id: fields.url,
    type: ["VerifiableCredential", STATUS_LIST_CREDENTIAL_TYPE],
    issuer: fields.issuer,
    validFrom: fields.validFrom,
    credentialSubject: {
      id: `${fields.url}#list`,
      type: "BitstringStatusList",
      statusPurpose: "message",
      statusSize: STATUS_SIZE,
      statusMessage: STATUS_MESSAGES,
      ttl: fields.ttlMs,
      encodedList: fields.encodedList,
    },
  };
}

/** What a relying party reads of a list credential. */
export interface StatusListCredential {
  id: string | undefined;
  issuer: string | undefined;
  validFrom: string | undefined;
  validUntil: string | undefined;
  ttlMs: number | undefined;
  encodedList: string;
  /** The status each value means, where the list's statusMessage names one of ours. */
  meaning(code: StatusCode): ManifestStatus | undefined;
}

/** The list credential in `value`, or why it is not one this reader can use (§3.2, MALFORMED_VALUE_ERROR). */
export function readStatusListCredential(value: unknown): StatusListCredential | { problem: string } {
  if (!isJsonObject(value)) return { problem: "the status list is not a JSON object" };
  const types = Array.isArray(value.type) ? value.type : [value.type];
  if (!types.includes(STATUS_LIST_CREDENTIAL_TYPE))
    return { problem: `the status list's type does not include ${STATUS_LIST_CREDENTIAL_TYPE}` };
  const context = value["@context"];
  if (!Array.isArray(context) || context[0] !== CREDENTIALS_V2_CONTEXT)
    return { problem: `the status list's @context does not start with ${CREDENTIALS_V2_CONTEXT}` };
  const subject = value.credentialSubject;
  if (!isJsonObject(subject) || subject.type !== "BitstringStatusList")
    return { problem: "the status list's credentialSubject is not a BitstringStatusList" };
  const purposes = Array.isArray(subject.statusPurpose) ? subject.statusPurpose : [subject.statusPurpose];
  if (!purposes.includes("message")) return { problem: 'the status list\'s statusPurpose is not "message"' };
  if (subject.statusSize !== STATUS_SIZE) return { problem: `the status list's statusSize is not ${STATUS_SIZE}` };
  const meanings = meaningsOf(subject.statusMessage);
  if ("problem" in meanings) return meanings;
  if (typeof subject.encodedList !== "string") return { problem: "the status list has no encodedList" };
  for (const name of ["validFrom", "validUntil"] as const) {
    if (value[name] !== undefined && !isDateTime(value[name]))
      return { problem: `the status list's ${name} is not an RFC 3339 date-time` };
  }
  if (subject.ttl !== undefined && !(Number.isSafeInteger(subject.ttl) && (subject.ttl as number) >= 0))
    return { problem: "the status list's ttl is not a whole number of milliseconds" };
  const text = (member: unknown) => (typeof member === "string" ? member : undefined);
  return {
    id: text(value.id),
    issuer: text(value.issuer) ?? (isJsonObject(value.issuer) ? text(value.issuer.id) : undefined),
    validFrom: text(value.validFrom),
    validUntil: text(value.validUntil),
    ttlMs: subject.ttl as number | undefined,
    encodedList: subject.encodedList,
    meaning: (code) => meanings[code],
  };
}

/** §2.1: an array of 2^statusSize objects, each with a `0x…` status and a message. */
function meaningsOf(statusMessage: unknown): (ManifestStatus | undefined)[] | { problem: string } {
  const count = 2 ** STATUS_SIZE;
  if (!Array.isArray(statusMessage) || statusMessage.length !== count)
    return { problem: `the status list's statusMessage is not an array of ${count} entries` };
  const meanings: (ManifestStatus | undefined)[] = new Array(count).fill(undefined);
  const seen = new Set<number>();
  for (const entry of statusMessage) {
    const code = isJsonObject(entry) && typeof entry.status === "string" ? hexValue(entry.status) : undefined;
    if (code === undefined || code >= count || seen.has(code) || typeof entry.message !== "string")
      return { problem: "the status list's statusMessage does not give each value one status and message" };
    seen.add(code);
    meanings[code] = (MANIFEST_STATUSES as readonly string[]).includes(entry.message)
      ? (entry.message as ManifestStatus)
      : undefined;
  }
  return meanings;
}

function hexValue(text: string): number | undefined {
  return /^0x[0-9a-fA-F]{1,2}$/.test(text) ? Number.parseInt(text.slice(2), 16) : undefined;
}
