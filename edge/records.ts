import { utf8 } from "../core/base64url.ts";
import { MANIFEST_STATUSES, type ManifestStatus } from "../core/status/status-document.ts";
import { instant } from "../core/date-time.ts";
import { isEtag } from "./etag.ts";
import type { RoutedDocuments } from "./routed-documents.ts";
import { readShardFile, SHARD_BITS, shardOf } from "./shard-file.ts";

/**
 * What the handler needs from storage: one lookup per UMID. Implementations decide where
 * records live (a sharded static index beside the body files, or
 * Workers KV for very large registries) and must never return a body that does not match
 * its ETag: they answer `corrupt` instead.
 */
export type ResolverRecord =
  | { kind: "manifest"; etag: string; body: Uint8Array<ArrayBuffer>; status: StatusWithEtag | undefined }
  | { kind: "redirect"; location: string }
  | { kind: "revoked"; status: StatusWithEtag | undefined }
  | { kind: "corrupt" };

/**
 * A UMID's status as the build computes it: the status document of EXT-OPT O2.2 but for
 * what the edge derives (`manifestId` is the UMID asked for, `cursor` comes from
 * `updatedAt`: core/status/status-document.ts).
 */
export interface StatusEntry {
  status: ManifestStatus;
  updatedAt: string;
  reason?: string;
  nextCheck: string;
}

/**
 * A status with the ETag of the status document it makes (statusDocumentBytes in
 * edge/responses.ts): the digest of exactly those bytes, so that any change to the
 * document, a reason too, is a new ETag. The build records it in the index; Workers KV
 * metadata has no room for it (see KvMetadata), so the Worker derives it when it reads
 * the record.
 */
export interface StatusWithEtag extends StatusEntry {
  etag: string;
}

/**
 * What the handler reads one deploy through: a lookup per UMID, and the stored files of the output (a file of the
 * static output, or the Workers KV value of the same key), which the route table names (route-table.ts).
 */
export interface RecordStore {
  /** The record for `umid`, or `undefined` when the UMID is unknown. */
  get(umid: string): Promise<ResolverRecord | undefined>;
  /** The bytes stored as `key`, as they are (the reader checks them), or `undefined` when none are. */
  blob(key: string): Promise<Uint8Array<ArrayBuffer> | undefined>;
  /** The deploy's route table, read through `blob` and kept across requests (routed-documents.ts). */
  readonly routes: RoutedDocuments;
}

/**
 * The record index the build writes: records split over 4096 shard files,
 * `index/<xyz>.json`, where `xyz` are the top 12 bits, in lower-case hex, of the 32-bit
 * FNV-1a hash of the UMID's UTF-8 bytes; each is `{"format": INDEX_FORMAT, "records": {UMID: RecordEntry}}`.
 * The layout is fixed, so a lookup needs no table of contents: one shard read finds any
 * UMID (a missing shard holds no records). The hash only spreads records (it guards
 * nothing), so a fast synchronous one serves; build and edge share this very function (shard-file.ts).
 * Lower-case hex names survive case-insensitive hosts; 4096 shards keep each near 250
 * records at a million manifests (~80 KB with UUID UMIDs: a record with its status is
 * about 330 bytes). Paths in entries are relative to the output root.
 */
export const INDEX_FORMAT = 3;

/**
 * Whether a stored status can be served. A KV record written before statuses existed (a
 * Worker deployed before its new records were loaded) has none: its manifest or 410 is
 * still answered, and its status document is a logged 500, not a crash.
 */
export function isStatusEntry(value: unknown): value is StatusEntry {
  const entry = value as Partial<StatusEntry> | null;
  return (
    typeof entry === "object" &&
    entry !== null &&
    (MANIFEST_STATUSES as readonly unknown[]).includes(entry.status) &&
    instant(entry.updatedAt) !== undefined &&
    typeof entry.nextCheck === "string" &&
    (entry.reason === undefined || typeof entry.reason === "string")
  );
}

/**
 * A stored status with its document's ETag, as the index holds it: an ETag of the build's form, which the status
 * endpoint sends as it stands (a character past Latin-1 there made the host's Response throw).
 */
function isStatusWithEtag(value: unknown): value is StatusWithEtag {
  return isStatusEntry(value) && isEtag((value as Partial<StatusWithEtag>).etag);
}

/**
 * Whether a stored redirect's location can be sent as a `Location` header: printable ASCII, as every location the
 * build writes is (core/validate/redirect-location.ts). Another would make the host's Response throw. Which
 * locations a publisher may redirect to is the build's rule to hold, not the edge's: a stricter rule there must not
 * turn records an older build wrote into errors.
 */
export function isServableLocation(value: unknown): value is string {
  return typeof value === "string" && /^[\x21-\x7e]+$/.test(value);
}

/**
 * Whether an index entry is one the build writes. Any other is a corrupt record, as a body that does not match its
 * ETag is: answered 500, never served (a status without a date-time has no cursor to serve).
 */
export function isRecordEntry(value: unknown): value is RecordEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  if ("redirect" in entry) return isServableLocation(entry.redirect);
  if ("revoked" in entry) return entry.revoked === true && isStatusWithEtag(entry.status);
  return typeof entry.file === "string" && typeof entry.etag === "string" && isStatusWithEtag(entry.status);
}

/** How many shard files the record index can have (a shard where no UMID falls is not written). */
export const INDEX_SHARDS = 1 << SHARD_BITS;

/** The folder of the output the index's shards are in. */
export const INDEX_FOLDER = "index";

export function shardPath(umid: string): string {
  return `${INDEX_FOLDER}/${shardOf(umid)}.json`;
}

export type RecordEntry =
  | { file: string; etag: string; status: StatusWithEtag }
  | { redirect: string }
  | { revoked: true; status: StatusWithEtag };

/**
 * The one reader of an index shard's bytes, for every side that reads one: the edge (static-records.ts), `serve`
 * choosing a sample UMID and a warm build diffing the bodies a shard names (scripts/). Its entries by UMID, as
 * stored, or why the bytes are no shard of INDEX_FORMAT (shard-file.ts).
 */
export function readIndexShard(bytes: Uint8Array): Map<string, unknown> | { problem: string } {
  return readShardFile(bytes, INDEX_FORMAT, "records");
}

/** Written beside the index: what was built. It also marks a folder as build output. */
export const BUILD_INFO_PATH = "resolver.json";

/**
 * Workers KV, for registries past Cloudflare's static-file limits: one pair per UMID,
 * keyed `um:{UMID}` as the descriptor says. A manifest's value is its body, with
 * `{"etag", "status"}` as metadata; a redirect's value is its location, with
 * `{"redirect": true}`; a revocation's value is empty, with `{"revoked": true, "status"}`.
 * (Metadata holds at most 1024 bytes: a status reason is at most 200 characters, and with
 * 200 of four UTF-8 bytes the metadata is 970 bytes, leaving no room for the 66 of the
 * status document's ETag, which the Worker derives instead.) KV keys
 * hold at most 512 bytes: a longer UMID is keyed `um-sha256:{hex SHA-256 of the UMID}`.
 */
export type KvMetadata =
  | { etag: string; status: StatusEntry }
  | { redirect: true }
  | { revoked: true; status: StatusEntry };
export const MAX_KV_KEY_BYTES = 512;

export async function kvKey(umid: string): Promise<string> {
  const key = `um:${umid}`;
  if (utf8(key).byteLength <= MAX_KV_KEY_BYTES) return key;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(umid)));
  return `um-sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
