/**
 * Resolving a statusRef into a W3C Bitstring Status List, `<list URL>#<index>`
 * (core/status-list/list-entry-ref.ts; EXT-OPT O2.4: the herd-privacy status an evaluator
 * SHOULD prefer): the list credential is fetched as a status document is (O2.1: https:
 * or loopback http: only, through the client's HttpCache and conditional GET), and the
 * entry's two bits read through the list's own `statusMessage`. Nothing in the request
 * says which manifest is checked: one list answers for its whole herd.
 *
 * A list is used without a request for its `ttl` (else its max-age), at most
 * MAX_NEXT_CHECK_SECONDS, and never past its `validUntil`; then it is revalidated with
 * `If-None-Match: <its ETag>`, and so is one older (by its `validFrom`) than the manifest's
 * `revocationCursor`, O2.1's floor. What a list body holds (the credential read, its bits
 * inflated, its proof checked) is kept in memory by the body's text, so a relying party
 * checking a thousand manifests of one list fetches it once and inflates it once.
 *
 * Its answers are ordered (status-memory.ts) by the cursor of its `validFrom`: a publisher
 * dates a list by the latest status change among its members (the endpoint's `updatedAt`
 * of that member), so a list that lifts a suspension is newer than the suspension it lifts.
 *
 * With `listKeys` (the did:key DIDs the relying party pinned) a list counts only with an
 * eddsa-jcs-2022 proof by one of them: otherwise "unchecked", `um:reason:status:list-unverified`,
 * and its bits are never read; the same for a list with no `id`, whose proof ties its bits to
 * no URL. Without, the list is trusted by the origin that served it, as a status document
 * is, and the receipt's `revocationResolvedBy` is the list's URL.
 * Every other failure is "unchecked" with O2.4's reasons (status-resolution.ts); a body that
 * is no list, or that holds no status at the index, is `um:reason:status:invalid-response`.
 */
import { DEFAULT_LIMITS } from "../evaluate/limits.ts";
import { verifyEddsaJcs2022Proof, type ProofVerdict } from "../crypto/eddsa-jcs-2022.ts";
import { ed25519DidKey } from "../did/did-key.ts";
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import { LruCache } from "../lru-cache.ts";
import { isJsonMediaType, mediaTypeOf } from "../media-type.ts";
import { cursorAtLeast, MAX_NEXT_CHECK_SECONDS, statusCursor } from "../status/status-document.ts";
import { decodeStatusList, STATUS_LIST_BYTES, STATUS_SIZE, type StatusBits } from "../status-list/bitstring.ts";
import { readStatusListCredential, type StatusListCredential } from "../status-list/credential.ts";
import type { ListEntryRef } from "../status-list/list-entry-ref.ts";
import { instant } from "../date-time.ts";
import { cachedGet, type Freshness } from "../http/conditional-get.ts";
import { storedWithin, type CachedEntry } from "../http/http-cache.ts";
import { unanswered, unchecked, type StatusAnswer, type StatusRequest } from "./status-resolution.ts";

/** A list is ~100 B (all active) to ~50 KiB (entries set at random); this bounds what is read of one. */
const MAX_LIST_BYTES = 1024 * 1024;
const LIST_TYPES = "application/vc+ld+json, application/vc, application/ld+json, application/json";

export interface ListRequest extends StatusRequest {
  /** The did:key DIDs whose proof a list must carry; undefined: lists are trusted by their origin. */
  listKeys: ReadonlySet<string> | undefined;
  /** The manifest's revocationCursor (O2.1): a kept list older than it is revalidated. */
  floor: string | undefined;
}

/** A list body, read once: the credential, and its bits and proof once asked for. */
interface ReadList {
  document: Record<string, unknown>;
  credential: StatusListCredential;
  bits?: Promise<StatusBits | { problem: string }>;
  proof?: Promise<ProofVerdict>;
}

/** The lists read, by body text: what is read of a body depends on nothing else. */
const readLists = new LruCache<ReadList | { problem: string }>(16 * 1024 * 1024);

/**
 * What the list entry `ref` holds. A credential's `id`, when it has one, must be the URL asked or `listId`: a peer
 * asked for its copy of the primary's list (status-sources.ts) may serve it as the primary built it, with the
 * primary's URL as its id.
 */
export async function listStatus(ref: ListEntryRef, request: ListRequest, listId = ref.listUrl): Promise<StatusAnswer> {
  const { listUrl, index } = ref;
  const got = await cachedGet({
    url: listUrl,
    accept: LIST_TYPES,
    maxBytes: MAX_LIST_BYTES,
    now: request.now,
    cache: request.cache,
    transport: request.transport,
    ...(request.sameOrigin === true && { sameOrigin: true }),
    judge: (entry) => judge(entry, request.floor, request.now),
  });
  if (got.kind !== "entry") return unanswered(got, "status list", MAX_LIST_BYTES);
  const { entry } = got;
  const invalid = (problem: string) => unchecked("invalid-response", `status list ${entry.url}: ${problem}`);
  const read = readList(entry);
  if ("problem" in read) return invalid(read.problem);
  const { credential } = read;
  if (credential.id !== undefined && credential.id !== listUrl && credential.id !== listId)
    return invalid(`its id is ${JSON.stringify(credential.id)}, not the URL it was asked at`);
  const validity = validityProblem(credential, request.now);
  if (validity !== undefined) return invalid(validity);
  if (request.listKeys !== undefined) {
    read.proof ??= verifyEddsaJcs2022Proof(read.document);
    const verdict = await read.proof;
    const signer = verdict.verified ? ed25519DidKey(verdict.publicKey) : undefined;
    // Without an id the proof binds the bits to no list: any list the key signed so could be served at this URL.
    if (!verdict.verified || !request.listKeys.has(signer!) || credential.id === undefined) {
      const why = !verdict.verified
        ? verdict.problem
        : credential.id === undefined
          ? "it has no id, so its proof does not say which list it is"
          : `its proof is by ${signer}, a key not pinned`;
      return unchecked(
        "list-unverified",
        `status list ${entry.url}: ${why}; its bits are not trusted`,
        "status/list-unverified",
      );
    }
  }
  read.bits ??= decodeStatusList(credential.encodedList).then((bits) => {
    // A list may hold up to MAX_DECODED_BYTES of bits from a body of a few KiB: counted at what it holds.
    if (!("problem" in bits))
      readLists.resize(entry.body, read, keptSize(entry.body, (bits.entries * STATUS_SIZE) / 8));
    return bits;
  });
  const bits = await read.bits;
  if ("problem" in bits) return invalid(bits.problem);
  if (index >= bits.entries) return invalid(`it has ${bits.entries} entries, none at index ${index}`);
  const status = credential.meaning(bits.codeAt(index));
  // The list's publisher answers for no status there (ours: a UMID redirected, or removed unrevoked): its status
  // endpoint's 404, whose O2.4 reason it takes.
  if (status === undefined)
    return unchecked(
      "endpoint-unknown-manifest",
      `status list ${entry.url}: its entry ${index} holds a value its statusMessage gives no status`,
    );
  await got.save();
  const cursor = credential.validFrom === undefined ? undefined : statusCursor(credential.validFrom);
  const resolvedBy = request.listKeys === undefined ? entry.url : "keys";
  const dated = credential.validFrom === undefined ? "" : ` as of ${credential.validFrom}`;
  return {
    revocation: {
      status,
      resolvedBy,
      ...(status !== "active" && { message: `status list ${entry.url}: entry ${index} is ${status}${dated}` }),
    },
    answered: {
      value: status,
      ...(credential.validFrom !== undefined && { since: credential.validFrom }),
      url: entry.url,
    },
    ...(cursor !== undefined && { cursor }),
  };
}

/**
 * Fresh for its ttl (else its max-age), at most a day, never past its validUntil, nor while older than `floor`;
 * revalidated by its ETag.
 */
function judge(entry: CachedEntry, floor: string | undefined, now: number): Freshness {
  const read = readList(entry);
  if ("problem" in read) return { fresh: false, validator: undefined };
  const { ttlMs, validFrom } = read.credential;
  const seconds = Math.min(ttlMs === undefined ? entry.maxAge : ttlMs / 1000, MAX_NEXT_CHECK_SECONDS);
  const belowFloor = floor !== undefined && (validFrom === undefined || !cursorAtLeast(statusCursor(validFrom), floor));
  return {
    fresh: storedWithin(entry, seconds, now) && validityProblem(read.credential, now) === undefined && !belowFloor,
    validator: entry.etag,
  };
}

/** Why the list is not valid at `now` (VC Data Model 2.0 §4.9), or undefined. */
function validityProblem(credential: StatusListCredential, now: number): string | undefined {
  const { validFrom, validUntil } = credential;
  if (validFrom !== undefined && instant(validFrom)! > now) return `it is valid only from ${validFrom}`;
  if (validUntil !== undefined && instant(validUntil)! <= now) return `it was valid only until ${validUntil}`;
  return undefined;
}

/** The list `entry` holds (of a JSON media type), read once per body text. */
function readList(entry: CachedEntry): ReadList | { problem: string } {
  const type = mediaTypeOf(entry.contentType);
  if (type !== "application/vc" && !isJsonMediaType(type))
    return { problem: `it is of type ${JSON.stringify(entry.contentType ?? null)}, not JSON` };
  const known = readLists.get(entry.body);
  if (known !== undefined) return known;
  const parsed = parseJson(entry.body, DEFAULT_LIMITS);
  const read: ReadList | { problem: string } = !parsed.ok
    ? { problem: `it is not JSON: ${parsed.problem.message}` }
    : !isJsonObject(parsed.value)
      ? { problem: "it is not a JSON object" }
      : withDocument(parsed.value, readStatusListCredential(parsed.value));
  readLists.set(entry.body, read, keptSize(entry.body));
  return read;
}

/** What a read list holds: the body, the values parsed from it, and the bits once inflated. */
function keptSize(body: string, bitsBytes = STATUS_LIST_BYTES): number {
  return body.length * 4 + bitsBytes;
}

function withDocument(
  document: Record<string, unknown>,
  credential: StatusListCredential | { problem: string },
): ReadList | { problem: string } {
  return "problem" in credential ? credential : { document, credential };
}
