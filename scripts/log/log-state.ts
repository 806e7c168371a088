/**
 * The log's verified state, kept between runs so that `log`, the gate and the build read only the entries added since
 * (issue 38, section 3; docs/security.md, "The log's verified state"): the signed checkpoint an audit proved the log
 * against, the SHA-256 of every file of the log's folder that audit read (which binds the state to those bytes), each
 * UMID's latest entry, and the latest map. A state is one file's bytes: its first line is the SHA-256 of the rest, a
 * JSON object; anything that does not match or parse is no state. The digest finds damage, not a forgery: the state is
 * as trusted as the rest of the cache it lives in (docs/security.md, "What it trusts, and what it does not").
 */
import { hash } from "node:crypto";
import { decodeBase64, encodeBase64 } from "../../core/base64url.ts";
import type { LatestMap } from "../../core/tlog/latest-map.ts";
import { HASH_SIZE, type Hash, treeRoot } from "../../core/tlog/merkle.ts";
import { TreeHashes } from "../../core/tlog/tree-hashes.ts";
import { toolIdentity } from "../cache/tool-identity.ts";

export interface LogState {
  /** The signed checkpoint the log was proven against, as read. */
  signedCheckpoint: Uint8Array;
  /** The SHA-256 (fileDigest) of each file of the log's folder the audit read, by its path there. */
  files: Map<string, string>;
  /** Each UMID's latest entry, as text. */
  latest: Map<string, string>;
  map: LatestMap;
}

/** The digest a state keeps of a file's bytes. */
export function fileDigest(bytes: Uint8Array): string {
  return hash("sha256", bytes, "base64url");
}

/**
 * The key of the state of the log whose verifier file holds `verifier`: one state per log and tool, so that the cache
 * holds one, whatever the log's size and however often it grows; which checkpoint it is about, the state says.
 */
export function logStateKey(verifier: Uint8Array): string {
  return hash("sha256", `manifest-resolver log state\0${toolIdentity()}\0${hash("sha256", verifier, "hex")}`, "hex");
}

/** The length of the digest's line: 64 hex digits and a line feed. */
const DIGEST_LINE = 65;

export function encodeLogState(state: LogState): Uint8Array {
  const { bits, count, leaves, buckets } = state.map;
  const body = JSON.stringify({
    checkpoint: encodeBase64(state.signedCheckpoint),
    files: [...state.files].flat(),
    bits,
    count,
    leaves: leaves.map(encodeBase64),
    buckets,
    latest: [...state.latest].flat(),
  });
  const bytes = Buffer.from(body);
  return Buffer.concat([Buffer.from(`${hash("sha256", bytes, "hex")}\n`), bytes]);
}

/** The state these bytes hold, or undefined when they hold none: damaged, truncated, or of another shape. */
export async function decodeLogState(bytes: Uint8Array): Promise<LogState | undefined> {
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = all.subarray(DIGEST_LINE);
  if (
    all[DIGEST_LINE - 1] !== 0x0a ||
    all.subarray(0, DIGEST_LINE - 1).toString("latin1") !== hash("sha256", body, "hex")
  )
    return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  const { checkpoint, files, bits, count, leaves, buckets, latest } = value as Record<string, unknown>;
  const signedCheckpoint = typeof checkpoint === "string" ? decodeBase64(checkpoint) : undefined;
  if (signedCheckpoint === undefined || !isStringPairs(files) || !isStringPairs(latest)) return undefined;
  if (!Number.isSafeInteger(bits) || (bits as number) < 0 || (bits as number) > 24 || !Number.isSafeInteger(count))
    return undefined;
  const width = 2 ** (bits as number);
  if (!Array.isArray(leaves) || !Array.isArray(buckets) || leaves.length !== width || buckets.length !== width)
    return undefined;
  const hashes = leaves.map((leaf) => (typeof leaf === "string" ? decodeBase64(leaf) : undefined));
  if (!hashes.every((leaf) => leaf?.length === HASH_SIZE)) return undefined;
  if (!buckets.every((bucket) => typeof bucket === "string")) return undefined;
  const tree = new TreeHashes(hashes as Hash[]);
  const map = { bits: bits as number, count: count as number, leaves: hashes as Hash[], buckets, tree };
  return {
    signedCheckpoint,
    files: pairs(files),
    latest: pairs(latest),
    map: { ...map, root: await treeRoot(tree, tree.size) },
  };
}

function isStringPairs(value: unknown): value is string[] {
  return Array.isArray(value) && value.length % 2 === 0 && value.every((item) => typeof item === "string");
}

function pairs(flat: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < flat.length; i += 2) map.set(flat[i]!, flat[i + 1]!);
  return map;
}
