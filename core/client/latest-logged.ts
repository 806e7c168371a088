/**
 * A resolver's answer proven against its transparency log (issue 26; C2SP tlog-tiles,
 * tlog-checkpoint): the client fetches the log's checkpoint at
 * `{base}/.well-known/manifest-resolver/log/`, reads it under the client's log policy
 * (core/tlog/witnessed-checkpoint.ts: signed by one of its logs' keys, whose name is the
 * origin, and cosigned by its quorum of witnesses, freshly; a key alone is a policy of no
 * witness), proves it extends the largest checkpoint it saw before
 * (checkpoint-memory.ts), takes the UMID's latest entry from the checkpoint's latest map
 * (core/tlog/latest-map.ts: one bucket file and its proof), and proves that entry's
 * inclusion in the checkpoint's tree from the served bundle and tiles. The answer is
 * then compared with the entry: a body must hash to its `sha256` (and a status learned
 * must be its state), a redirect must name its location, a 410 must meet "revoked".
 * Anything else is refused, as a receipt warning: `log/not-latest` (another state than
 * the latest logged, or none logged), `log/unproven` (the log proves nothing: a file
 * missing or wrong, another key, a cosignature that does not verify), `log/unwitnessed`
 * and `log/stale-cosignature` (no quorum of fresh cosignatures), `log/inconsistent` (a
 * checkpoint that does not extend one seen before, or of its size with another body:
 * two views signed of one tree), `log/revocation-undone` (a latest entry that is not
 * "revoked" for a UMID the log was seen to revoke: by this client before, or in the
 * entries before it in its bundle).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBase64url } from "../base64url.ts";
import type { Warning } from "../evaluate/receipt.ts";
import { quoted } from "../excerpt.ts";
import { proveConsistency } from "../tlog/consistency.ts";
import { parseEntryBundle } from "../tlog/entry-bundle.ts";
import { bucketOf, bucketPath, latestEntryIn, parseLatestLine } from "../tlog/latest-map.ts";
import { type LogEntry, parseLogEntry } from "../tlog/log-entry.ts";
import { isRevival } from "../tlog/permanent-revocation.ts";
import { leafHash } from "../tlog/merkle.ts";
import type { LogPolicy } from "../tlog/log-policy.ts";
import {
  DEFAULT_MAX_COSIGNATURE_AGE,
  openWitnessedCheckpoint,
  type WitnessCount,
  witnessedRefusal,
} from "../tlog/witnessed-checkpoint.ts";
// For resolve.ts, which loads this module only with a log key or policy, and reads them with it.
export { clientLogPolicy } from "./client-log-policy.ts";
import { inclusionProof, verifyInclusion } from "../tlog/proofs.ts";
import { TILE_WIDTH, tilePath, tileWidth } from "../tlog/tile.ts";
import { TileHashes, type TileStore } from "../tlog/tile-hashes.ts";
import { logUrlOf } from "../umid-path.ts";
import { checkpointRefusal, logRefusal as refused } from "./log-refusal.ts";
import { recallCheckpoint, rememberCheckpoint, sameCheckpoint } from "./checkpoint-memory.ts";
import type { Transport } from "../http/fetch-following.ts";
import { httpTileStore } from "./http-tile-store.ts";
import { recallLoggedRevocation, rememberLoggedRevocation } from "./logged-revocation-memory.ts";
import type { TrustMemory } from "./trust-memory.ts";

export interface LogRequest {
  /** The logs the resolver's may be, and the quorum of witnesses that must have cosigned its checkpoint. */
  policy: LogPolicy;
  /** Seconds a cosignature counts for; DEFAULT_MAX_COSIGNATURE_AGE if not given. */
  maxCosignatureAge?: number;
  /** The evaluation clock, milliseconds since 1970. */
  now: number;
  /** Where the largest checkpoint seen, and the revocations the log proved, are remembered. */
  memory: TrustMemory | undefined;
  transport: Transport;
}

/**
 * The UMID's latest entry, proven, with where it is; or the refusal. `witnessed`: how many of the witnesses the
 * policy's quorum counts cosigned the checkpoint, freshly, once it was the log's; on a refusal for too few, `missing`
 * names those that did not.
 */
export type Logged =
  | { ok: true; entry: LogEntry; index: number; size: number; witnessed: WitnessCount }
  | { ok: false; refusal: Warning; witnessed?: WitnessCount & { missing: string[] } };

/** What the resolver answered for the UMID, in the terms of the log's entries. */
export type Answer =
  /** Its first answer was a redirect to `location`. */
  | { kind: "redirect"; location: string }
  /** 410 Gone. */
  | { kind: "gone" }
  /** A body, exactly as received; `status`, what its status endpoint answered, when it did. */
  | { kind: "body"; body: Uint8Array; status?: "active" | "suspended" | "revoked" };

/** The latest entry of `umid` in the log of the resolver at `baseUrl` (no trailing slash), proven. */
export async function latestLogged(baseUrl: string, umid: string, request: LogRequest): Promise<Logged> {
  const logUrl = logUrlOf(baseUrl);
  try {
    return await proveLatest(httpTileStore(logUrl, request.transport), logUrl, umid, request);
  } catch (error) {
    // A file that could not be read, or a tile the proof needs that is not there.
    return refused("log/unproven", `the log at ${logUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function proveLatest(store: TileStore, logUrl: string, umid: string, request: LogRequest): Promise<Logged> {
  const { memory } = request;
  const checkpointUrl = `${logUrl}checkpoint`;
  const note = await store.read("checkpoint");
  if (note === undefined) return refused("log/unproven", `${checkpointUrl}: not found`);
  const { policy, maxCosignatureAge = DEFAULT_MAX_COSIGNATURE_AGE } = request;
  const reading = { now: request.now, maxAge: maxCosignatureAge };
  const opened = await openWitnessedCheckpoint(note, policy, reading);
  if (!opened.ok) return checkpointRefusal(opened, `${checkpointUrl} ${witnessedRefusal(opened, policy, reading)}`);
  // What was seen of the log is kept under the key that signed it: the policy may list other logs.
  const { checkpoint, log: key } = opened;
  const witnessed = { cosigned: opened.cosigned, of: opened.of };
  const { size, rootHash } = checkpoint;
  // The checkpoint's tree as its tiles give it: each tile is read once, for both proofs.
  const hashes = new TileHashes(store, size);
  // Proven against the checkpoint the memory holds, and again against another if one came meanwhile: a resolution
  // sharing the memory may have remembered a larger one while this one proved, which this one must extend too.
  const remembered = { note, size, url: checkpointUrl };
  for (let seen = await recallCheckpoint(memory, key); ; ) {
    if (seen !== undefined) {
      const consistency = await proveConsistency(hashes, seen, checkpoint);
      if (!consistency.ok && consistency.reason === "unreadable")
        return refused("log/unproven", `${checkpointUrl} (size ${size}): ${consistency.message}`);
      if (!consistency.ok)
        return refused(
          "log/inconsistent",
          `${checkpointUrl} (size ${size}) ` +
            `${consistency.reason === "smaller" ? "is smaller than" : "does not extend"} ` +
            `the checkpoint this client saw before (size ${seen.size})`,
        );
      // One tree, two bodies: the key signed two views of it (another latest map), and an answer of either is suspect.
      if (seen.size === size && !sameCheckpoint(seen, checkpoint))
        return refused(
          "log/inconsistent",
          `${checkpointUrl} (size ${size}) has the tree of the checkpoint this client saw before, ` +
            `but another signed body: the log's key signed two views of one tree`,
        );
    }
    seen = await rememberCheckpoint(memory, key, seen, remembered, request.now);
    if (seen === undefined) break;
  }

  const commitment = parseLatestLine(checkpoint.extensions);
  if (commitment === undefined) return refused("log/unproven", `${checkpointUrl} commits to no latest map`);
  const bucketFile = bucketPath(size, bucketOf(umid, commitment.bits));
  const bucket = await store.read(bucketFile);
  if (bucket === undefined) return refused("log/unproven", `${logUrl}${bucketFile}: not found`);
  const latest = latestEntryIn(bucket, umid, commitment);
  if (!latest.ok && latest.reason === "not-logged")
    return refused("log/not-latest", `the log has no entry for ${quoted(umid)} (checkpoint size ${size})`);
  if (!latest.ok)
    return refused(
      "log/unproven",
      `${logUrl}${bucketFile} ` +
        (latest.reason === "mismatch" ? "is not the bucket the checkpoint commits to" : "is not a bucket file"),
    );
  const { index } = latest;
  if (index >= size) return refused("log/unproven", `${logUrl}${bucketFile} names entry ${index}, past size ${size}`);

  const tileIndex = Math.floor(index / TILE_WIDTH);
  // An entry bundle is as wide as the level 0 tile of its coordinates.
  const width = tileWidth(0, tileIndex, size);
  const bundleFile = tilePath({ level: "entries", index: tileIndex, width });
  const bundle = await store.read(bundleFile);
  const entries = bundle && parseEntryBundle(bundle, width);
  const entryBytes = entries?.[index % TILE_WIDTH];
  if (entryBytes === undefined) return refused("log/unproven", `${logUrl}${bundleFile}: not found, or not a bundle`);
  const proof = await inclusionProof(hashes, index, size);
  if (!verifyInclusion(leafHash(entryBytes), index, size, proof, rootHash))
    return refused("log/unproven", `entry ${index} of ${logUrl}${bundleFile} is not in the checkpoint's tree`);
  const entry = parseLogEntry(entryBytes);
  if (entry?.umid !== umid)
    return refused("log/unproven", `entry ${index}, which the latest map names, is not an entry of ${quoted(umid)}`);
  if (entry.state === "revoked")
    await rememberLoggedRevocation(memory, key, umid, `${logUrl}${bundleFile}`, request.now);
  else {
    // Revocation is permanent (EXT-OPT O2.3): a state the log records after a revocation of the UMID is refused.
    const seenAt = await recallLoggedRevocation(memory, key, umid);
    const before =
      seenAt === undefined
        ? await revokedBefore(entries!, index, entry, { hashes, size, rootHash })
        : `as this client saw in ${seenAt}`;
    if (before !== undefined)
      return refused(
        "log/revocation-undone",
        `the latest entry of ${quoted(umid)} in the log (entry ${index} of ${size}) says ${entry.state}, ` +
          `after the log revoked it (${before}): revocation is permanent`,
      );
  }
  return { ok: true, entry, index, size, witnessed };
}

/**
 * Which entry before `index` in its bundle (`entries`), proven in the tree, revokes the UMID of `entry`, so that
 * `entry` would undo it (isRevival): "entry 3"; undefined when none does. The entries of other bundles are a monitor's to read (scripts/log/monitor-log.ts): a client reads
 * one bundle.
 */
async function revokedBefore(
  entries: readonly Uint8Array[],
  index: number,
  entry: LogEntry,
  tree: { hashes: TileHashes; size: number; rootHash: Uint8Array },
): Promise<string | undefined> {
  const first = index - (index % TILE_WIDTH);
  for (let i = first; i < index; i++) {
    const bytes = entries[i - first]!;
    const earlier = parseLogEntry(bytes);
    if (earlier?.umid !== entry.umid || !isRevival(earlier, entry)) continue;
    const proof = await inclusionProof(tree.hashes, i, tree.size);
    if (verifyInclusion(leafHash(bytes), i, tree.size, proof, tree.rootHash)) return `entry ${i}`;
  }
  return undefined;
}

/** Why `answer` is not the state the log's latest entry records; undefined when it is. */
export function answerRefusal(logged: Extract<Logged, { ok: true }>, answer: Answer): Warning | undefined {
  const { entry } = logged;
  const digest = answer.kind === "body" ? encodeBase64url(sha256(answer.body)) : undefined;
  const agrees =
    answer.kind === "redirect"
      ? entry.state === "redirected" && entry.location === answer.location
      : answer.kind === "gone"
        ? entry.state === "revoked"
        : (entry.state === "active" || entry.state === "suspended") &&
          entry.sha256 === digest &&
          (answer.status === undefined || answer.status === entry.state);
  if (agrees) return undefined;
  const answered =
    answer.kind === "redirect"
      ? `redirects to ${quoted(answer.location)}`
      : answer.kind === "gone"
        ? "answers 410 Gone"
        : `serves a body of SHA-256 ${digest}` +
          (answer.status === undefined ? "" : `, its status endpoint answering ${answer.status}`);
  const says =
    entry.state === "redirected"
      ? `redirected to ${quoted(entry.location)}`
      : entry.state === "revoked"
        ? "revoked"
        : `${entry.state}, a body of SHA-256 ${entry.sha256}`;
  return refused(
    "log/not-latest",
    `the resolver ${answered}, but the latest entry of ${quoted(entry.umid)} in its log ` +
      `(entry ${logged.index} of ${logged.size}) says ${says}`,
  ).refusal;
}
