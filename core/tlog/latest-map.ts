/**
 * The latest map: which entry of the log is each UMID's latest. Inclusion proves that an
 * entry is in the log, not that no later one supersedes it, and a party on the path can
 * replay any old body. So each checkpoint commits to the map, in one extension line
 * `manifest-resolver/latest <k> <root>`, and a client proves a UMID's latest entry with
 * one small file and no scan of the log.
 *
 * The map is cut into 2^k buckets by the top k bits of SHA-256(UMID), k the least that
 * keeps the mean bucket at most 256 UMIDs. Bucket j's leaf is the JCS bytes of
 * `{umid: index, ...}`; the root is the RFC 6962 tree hash over the 2^k leaves. The map is
 * a function of the log's entries alone, so a monitor recomputes it and compares roots
 * (tlog-checkpoint warns that extension lines are otherwise not auditable).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeBase64, encodeBase64, utf8 } from "../base64url.ts";
import { canonicalize } from "../crypto/jcs.ts";
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import { HASH_SIZE, type Hash, leafHash, treeRoot } from "./merkle.ts";
import { inclusionProof, verifyInclusion } from "./proofs.ts";
import { TreeHashes } from "./tree-hashes.ts";

export const LATEST_EXTENSION = "manifest-resolver/latest";

/** The mean bucket the map keeps to: a bucket file stays a few kilobytes. */
const BUCKET_CAPACITY = 256;

/** 2^24 buckets hold four billion UMIDs; a line that claims more is not one a log wrote. */
const MAX_BITS = 24;

export interface LatestCommitment {
  /** k: the map has 2^k buckets. */
  bits: number;
  root: Hash;
}

export interface LatestMap extends LatestCommitment {
  /** Bucket j's leaf: the JCS text of its `{umid: index}`, which its file serves as it is. */
  buckets: string[];
  /** Bucket j's leaf hash. */
  leaves: Hash[];
  /** How many UMIDs the map holds. */
  count: number;
  tree: TreeHashes;
}

/** The map of the log whose entries name these UMIDs, in log order. */
export function latestMap(umids: Iterable<string>): Promise<LatestMap> {
  return extendedLatestMap(undefined, umids, 0);
}

/**
 * The map of a log that is `map`'s log (none: an empty log) followed by entries naming `umids`, in log order, the first
 * at index `from`. Only the buckets they fall in are read and hashed again, unless the map must double its buckets: an
 * append costs what it adds.
 */
export async function extendedLatestMap(
  map: LatestMap | undefined,
  umids: Iterable<string>,
  from: number,
): Promise<LatestMap> {
  const latest = new Map<string, number>();
  let index = from;
  for (const umid of umids) latest.set(umid, index++);
  const tops = new Map<string, number>();
  for (const umid of latest.keys()) tops.set(umid, topBits(umid));
  const buckets = map === undefined ? ["{}"] : [...map.buckets];
  // The buckets that change, read from their text: `map` stays the map it was.
  const changed = new Map<number, Record<string, number>>();
  const bucket = (j: number) => {
    const read = changed.get(j) ?? parseBucket(buckets[j]!);
    changed.set(j, read);
    return read;
  };
  // A map of no UMIDs has one bucket, and its leaf.
  if (map === undefined) bucket(0);
  let bits = map?.bits ?? 0;
  let count = map?.count ?? 0;
  for (const [umid, top] of tops) if (!Object.hasOwn(bucket(bucketAt(top, bits)), umid)) count++;
  if (count > BUCKET_CAPACITY * 2 ** bits) {
    while (count > BUCKET_CAPACITY * 2 ** bits) bits++;
    // Every UMID moves to a bucket of the new size: the map is made again.
    for (let j = 0; j < buckets.length; j++)
      for (const [umid, at] of Object.entries(bucket(j)))
        if (!latest.has(umid)) {
          latest.set(umid, at);
          tops.set(umid, topBits(umid));
        }
    buckets.length = 0;
    changed.clear();
    for (let j = 0; j < 2 ** bits; j++) changed.set(j, Object.create(null) as Record<string, number>);
  }
  for (const [umid, at] of latest) bucket(bucketAt(tops.get(umid)!, bits))[umid] = at;
  const leaves = map === undefined || changed.size === 2 ** bits ? [] : [...map.leaves];
  for (const [j, read] of changed) {
    buckets[j] = canonicalize(read);
    leaves[j] = leafHash(utf8(buckets[j]!));
  }
  const tree = new TreeHashes(leaves);
  return { bits, root: await treeRoot(tree, tree.size), buckets, leaves, count, tree };
}

/** A bucket's `{umid: index}` from its leaf's text, without a prototype: "__proto__" is then a UMID like any other. */
function parseBucket(text: string): Record<string, number> {
  return Object.assign(Object.create(null) as Record<string, number>, JSON.parse(text) as Record<string, number>);
}

/** Which of 2^bits buckets holds `umid`. */
export function bucketOf(umid: string, bits: number): number {
  return bucketAt(topBits(umid), bits);
}

/** The top 32 bits of SHA-256 of the UMID's UTF-8 bytes. */
function topBits(umid: string): number {
  const [a, b, c, d] = sha256(utf8(umid));
  return ((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0;
}

function bucketAt(top: number, bits: number): number {
  return bits === 0 ? 0 : Math.floor(top / 2 ** (32 - bits));
}

export function formatLatestLine({ bits, root }: LatestCommitment): string {
  return `${LATEST_EXTENSION} ${bits} ${encodeBase64(root)}`;
}

/** The commitment among a checkpoint's extension lines: exactly one well-formed line, or undefined. */
export function parseLatestLine(extensions: readonly string[]): LatestCommitment | undefined {
  const lines = extensions.filter((line) => line.startsWith(`${LATEST_EXTENSION} `));
  if (lines.length !== 1) return undefined;
  const [, bitsText, rootText] = lines[0]!.split(" ");
  if (!/^(?:0|[1-9][0-9]?)$/.test(bitsText!) || Number(bitsText) > MAX_BITS) return undefined;
  const root = decodeBase64(rootText ?? "");
  if (root?.length !== HASH_SIZE || lines[0] !== formatLatestLine({ bits: Number(bitsText), root })) return undefined;
  return { bits: Number(bitsText), root };
}

/** A bucket file is an object of numbers beside one proof of at most MAX_BITS hashes. */
const BUCKET_SHAPE = { maxDepth: 2, maxArrayItems: MAX_BITS };

/** Where a log of `size` entries serves bucket `bucket`, under the log's prefix. */
export function bucketPath(size: number, bucket: number): string {
  return `latest/${size}/${bucket}`;
}

/** The served bucket file: `{"latest": {umid: index}, "proof": [base64 hashes]}`. */
export async function bucketFile(map: LatestMap, bucket: number): Promise<Uint8Array> {
  const proof = await inclusionProof(map.tree, bucket, map.tree.size);
  // The JCS of {latest, proof}: its members in that order, the bucket's leaf text as it is.
  return utf8(`{"latest":${map.buckets[bucket]},"proof":${JSON.stringify(proof.map(encodeBase64))}}`);
}

export type LatestEntry = { ok: true; index: number } | { ok: false; reason: "malformed" | "mismatch" | "not-logged" };

/**
 * The index of `umid`'s latest entry, from its bucket file, once the file is proven to be
 * the bucket the commitment names: `mismatch` when it is not, `not-logged` when it is and
 * the UMID has no entry.
 */
export function latestEntryIn(file: Uint8Array, umid: string, commitment: LatestCommitment): LatestEntry {
  const parsed = parseJson(new TextDecoder().decode(file), BUCKET_SHAPE);
  const value = parsed.ok ? parsed.value : undefined;
  if (!isJsonObject(value) || !isJsonObject(value.latest) || !Array.isArray(value.proof)) return malformed;
  const proof = value.proof.map((hash) => (typeof hash === "string" ? decodeBase64(hash) : undefined));
  if (proof.some((hash) => hash?.length !== HASH_SIZE)) return malformed;
  const indices = Object.values(value.latest);
  if (!indices.every((index) => Number.isSafeInteger(index) && (index as number) >= 0)) return malformed;
  const leaf = leafHash(bucketLeaf(value.latest as Record<string, number>));
  const bucket = bucketOf(umid, commitment.bits);
  if (!verifyInclusion(leaf, bucket, 2 ** commitment.bits, proof as Hash[], commitment.root))
    return { ok: false, reason: "mismatch" };
  const index = Object.hasOwn(value.latest, umid) ? value.latest[umid] : undefined;
  return index === undefined ? { ok: false, reason: "not-logged" } : { ok: true, index: index as number };
}

const malformed = { ok: false, reason: "malformed" } as const;

function bucketLeaf(bucket: Record<string, number>): Uint8Array {
  return utf8(canonicalize(bucket));
}
