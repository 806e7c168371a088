/**
 * Auditing a served log (issue 26, section 5): its checkpoint is one the monitor's log policy
 * takes (core/tlog/witnessed-checkpoint.ts: signed by its log's key, and cosigned by its
 * quorum of witnesses, freshly; a key alone is a policy of no witness);
 * every entry bundle and tile hashes to the checkpoint's root; the latest map its entries
 * make is the one its checkpoint commits to, and every served bucket file is that map's,
 * byte for byte (extension lines are not auditable otherwise); and, given the checkpoint
 * this monitor saved before, the log only grew: the saved tree is a prefix of the served
 * one. Then, which UMIDs' latest entries changed since the saved checkpoint.
 */
import { encodeBase64 } from "../../core/base64url.ts";
import { globalFetch } from "../../core/http/fetch-following.ts";
import { httpTileStore, LogFileTooLarge, LogReadError } from "../../core/client/http-tile-store.ts";
import { proveConsistency } from "../../core/tlog/consistency.ts";
import { auditLog } from "../../core/tlog/audit.ts";
import type { Checkpoint } from "../../core/tlog/checkpoint.ts";
import type { LogPolicy } from "../../core/tlog/log-policy.ts";
import { openWitnessedCheckpoint, type WitnessCount, witnessedRefusal } from "../../core/tlog/witnessed-checkpoint.ts";
import { bucketFile, bucketPath, latestMap, parseLatestLine } from "../../core/tlog/latest-map.ts";
import { type Hash, sameHash } from "../../core/tlog/merkle.ts";
import type { TileStore } from "../../core/tlog/tile-hashes.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { LoggedReader } from "./log-entries.ts";
import { parseTilePath } from "../../core/tlog/tile.ts";
import { CHECKPOINT_FILE, loggedFault } from "./log-folder.ts";

/** A UMID whose latest entry changed: `before` undefined when it had none. */
export interface StateChange {
  umid: string;
  before: string | undefined;
  after: string;
}

export type Monitored =
  | {
      ok: true;
      checkpoint: Checkpoint;
      /** The checkpoint's signed note, as served: what a later run checks the log against. */
      signedCheckpoint: Uint8Array;
      /** Each UMID's latest entry, as text. */
      latest: Map<string, string>;
      /** In UMID order. */
      changes: StateChange[];
      /** How many of the witnesses the policy's quorum counts cosigned the checkpoint, freshly. */
      witnessed: WitnessCount;
    }
  /** `url`: the served file found wrong. */
  | { ok: false; rule: MonitorRule; url: string; message: string }
  /** No answer, or an answer other than 200 or 404: nothing is known of the log. */
  | { ok: false; rule: undefined; message: string };

type MonitorRule = Extract<
  RuleId,
  | "log/bad-checkpoint"
  | "log/unwitnessed"
  | "log/stale-cosignature"
  | "log/tile-mismatch"
  | "log/map-mismatch"
  | "log/inconsistent"
  | "log/revocation-undone"
>;

/** The log policy a monitor reads the checkpoint under, the clock (ms) and the bound on a cosignature's age. */
export interface MonitorPolicy {
  policy: LogPolicy;
  now: number;
  /** Seconds; DEFAULT_MAX_COSIGNATURE_AGE if not given. */
  maxAge?: number;
}

/** As long as the client waits for a manifest. */
const TIMEOUT_MS = 10_000;

/** Audits the log served at `logUrl` (ending in a slash), against `saved`, the checkpoint of an earlier audit. */
export async function monitorLog(
  logUrl: string,
  policy: MonitorPolicy,
  saved: Checkpoint | undefined,
): Promise<Monitored> {
  // The client's GET and bounds: https: or loopback http:, redirects held to them, each file read up to its most.
  const store = httpTileStore(logUrl, { fetch: globalFetch, timeoutMs: TIMEOUT_MS });
  try {
    return await audited(store, logUrl, policy, saved);
  } catch (error) {
    if (error instanceof LogFileTooLarge)
      return { ok: false, rule: tooLargeRule(error.path), url: logUrl + error.path, message: error.message };
    if (error instanceof LogReadError) return { ok: false, rule: undefined, message: error.message };
    throw error;
  }
}

/** The rule a served file longer than any the log serves at its path breaks: a tile or bundle, by its width. */
function tooLargeRule(path: string): MonitorRule {
  if (path === CHECKPOINT_FILE) return "log/bad-checkpoint";
  return parseTilePath(path) === undefined ? "log/map-mismatch" : "log/tile-mismatch";
}

async function audited(
  store: TileStore,
  logUrl: string,
  { policy, ...options }: MonitorPolicy,
  saved: Checkpoint | undefined,
): Promise<Monitored> {
  const checkpointUrl = logUrl + CHECKPOINT_FILE;
  const fail = (rule: MonitorRule, url: string, message: string) => ({ ok: false, rule, url, message }) as const;
  const note = await store.read(CHECKPOINT_FILE);
  if (note === undefined) return fail("log/bad-checkpoint", checkpointUrl, "not found (404)");
  const opened = await openWitnessedCheckpoint(note, policy, options);
  if (!opened.ok) {
    const why = witnessedRefusal(opened, policy, options);
    if (opened.reason === "unwitnessed" || opened.reason === "stale")
      return fail(opened.reason === "stale" ? "log/stale-cosignature" : "log/unwitnessed", checkpointUrl, why);
    return fail("log/bad-checkpoint", checkpointUrl, why);
  }
  const { checkpoint } = opened;
  const { size, rootHash } = checkpoint;
  if (saved !== undefined && saved.origin !== checkpoint.origin)
    return fail(
      "log/bad-checkpoint",
      checkpointUrl,
      `is a checkpoint of ${checkpoint.origin}, not of ${saved.origin}, whose checkpoint the last run saved`,
    );
  const oldSize = saved?.size ?? 0;
  if (size < oldSize)
    return fail(
      "log/inconsistent",
      checkpointUrl,
      `size ${size}: the log shrank from the saved checkpoint's ${oldSize}`,
    );

  const logged = new LoggedReader(oldSize);
  const audit = await auditLog(store, size, rootHash, (entries, path) => logged.read(entries, path));
  if (!audit.ok) {
    if (audit.reason === "refused") {
      const { file, reason, rule } = loggedFault(logged.fault!);
      return fail(rule ?? "log/tile-mismatch", logUrl + file, reason);
    }
    const url = audit.path === CHECKPOINT_FILE ? checkpointUrl : logUrl + audit.path;
    return fail("log/tile-mismatch", url, auditFailure(audit.reason, audit.path, size, rootHash));
  }

  if (saved !== undefined && !(await proveConsistency(audit.tree, saved, checkpoint)).ok)
    return fail(
      "log/inconsistent",
      checkpointUrl,
      `the saved checkpoint's tree (size ${saved.size}, root ${encodeBase64(saved.rootHash)}) is not a prefix of ` +
        `this one (size ${size}): a split view, or a rewritten log`,
    );

  const map = await latestMap(logged.umids);
  const committed = parseLatestLine(checkpoint.extensions);
  if (committed?.bits !== map.bits || !sameHash(committed.root, map.root))
    return fail("log/map-mismatch", checkpointUrl, "its latest-map line is not the map the log's entries make");
  for (let bucket = 0; bucket < map.buckets.length; bucket++) {
    const expected = await bucketFile(map, bucket);
    const url = logUrl + bucketPath(size, bucket);
    const served = await store.read(bucketPath(size, bucket));
    if (served === undefined) return fail("log/map-mismatch", url, "not found (404)");
    if (!sameHash(served, expected))
      return fail("log/map-mismatch", url, `is not bucket ${bucket} of the map the log's entries make`);
  }

  const before = logged.latestSince!;
  const changes = [...logged.latest]
    .filter(([umid, entry]) => before.get(umid) !== entry)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([umid, after]) => ({ umid, before: before.get(umid), after }));
  const witnessed = { cosigned: opened.cosigned, of: opened.of };
  return { ok: true, checkpoint, signedCheckpoint: note, latest: logged.latest, changes, witnessed };
}

/** Why the audit of the served tiles failed, in words. */
function auditFailure(reason: "missing" | "malformed" | "mismatch", path: string, size: number, root: Hash): string {
  if (path === CHECKPOINT_FILE)
    return `the tiles served make another root than the checkpoint's, ${encodeBase64(root)}`;
  if (reason === "missing") return `missing (404), though the checkpoint's tree of size ${size} has it`;
  const bundle = parseTilePath(path)?.level === "entries";
  if (reason === "malformed")
    return `malformed: not ${bundle ? "an entry bundle of as many entries" : "a tile of as many hashes"} as its path says`;
  if (bundle) return "mismatch: its entries are not those whose hashes its tile holds";
  return "mismatch: not the hashes of the tiles below it";
}
