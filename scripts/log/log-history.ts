/**
 * `check --base REV` and the transparency log (issue 26, section 3): the log now must be an append-only extension
 * of the log committed at REV. A log must not sign a checkpoint inconsistent with one it signed (C2SP
 * tlog-checkpoint): a client or monitor that holds REV's checkpoint would refuse the log, as one that rewrote its
 * history. Proven as they prove it: REV's checkpoint verified with REV's verifier, the same key now, and a
 * consistency proof from REV's tree to the tree now (from its tiles, which the gate audited) verified against REV's
 * root.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeBase64 } from "../../core/base64url.ts";
import { proveConsistency } from "../../core/tlog/consistency.ts";
import { TileHashes, type TileStore } from "../../core/tlog/tile-hashes.ts";
import { readFilesAt, type Revision } from "../history/git-revision.ts";
import { displayPath } from "../read/files.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import {
  type AuditedLog,
  CHECKPOINT_FILE,
  emptyCheckpoint,
  fileTileStore,
  LOG_FOLDER,
  openSignedLog,
  type SignedLog,
  VERIFIER_FILE,
} from "./log-folder.ts";
import { POLICY_FILE } from "./policy-file.ts";

/**
 * The log now (`now`, opened and audited from `contentDir`'s log folder; undefined when there is none) against the log
 * at `revision`.
 */
export async function logHistoryProblems(
  contentDir: string,
  now: AuditedLog | undefined,
  revision: Revision,
): Promise<Diagnostic[]> {
  const logDir = join(contentDir, LOG_FOLDER);
  const verifierName = `${LOG_FOLDER}/${VERIFIER_FILE}`;
  const checkpointName = `${LOG_FOLDER}/${CHECKPOINT_FILE}`;
  const policyName = `${LOG_FOLDER}/${POLICY_FILE}`;
  const files = await readFilesAt(revision, [verifierName, checkpointName, policyName]);
  const policyChange = await policyChanged(join(logDir, POLICY_FILE), files.get(policyName), revision.name);
  const before = await openSignedLog(files.get(verifierName), files.get(checkpointName));
  if (!before.ok) {
    const file = `${displayPath(join(logDir, before.file))}@${revision.name}`;
    const message =
      `${before.reason}: the log committed at ${revision.name} does not verify, so no log can be shown to extend ` +
      "it; compare with a revision whose log verifies";
    return [diagnostic("log/rewritten", { file }, message), ...policyChange];
  }
  const why = await notExtending(before, now, fileTileStore(logDir), revision.name);
  if (why === undefined) return policyChange;
  const fix = `restore it (git checkout ${revision.name} -- ${displayPath(logDir)}) and run log again`;
  const file = displayPath(join(logDir, CHECKPOINT_FILE));
  return [diagnostic("log/rewritten", { file }, `${why}: ${fix}`), ...policyChange];
}

/**
 * The warning of a witness policy (`path` now; `before`, its bytes at `rev`) that is not what it was at `rev`: a
 * witness removed, a quorum lowered or the policy gone lets a checkpoint through that fewer witnesses saw. Any change
 * is named, as history/settings-changed names one: telling a weaker quorum from a stronger one is the reviewer's.
 */
async function policyChanged(path: string, before: Uint8Array | undefined, rev: string): Promise<Diagnostic[]> {
  if (before === undefined) return [];
  const now = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (now !== undefined && Buffer.compare(now, before) === 0) return [];
  const message =
    now === undefined
      ? `the log's witness policy is removed: ${rev} has one, and check and build no longer ask for cosignatures`
      : `the log's witness policy is not ${rev}'s: review the witnesses and the quorum it asks for`;
  const file = now === undefined ? `${displayPath(path)}@${rev}` : displayPath(path);
  return [diagnostic("history/log-policy-changed", { file }, message)];
}

/**
 * Why the log `now`, whose audited tiles `tiles` holds, is not an append-only extension of the log `before` at `rev`;
 * undefined when it is one.
 */
async function notExtending(
  before: SignedLog,
  now: AuditedLog | undefined,
  tiles: TileStore,
  rev: string,
): Promise<string | undefined> {
  if (before.key === undefined) return undefined;
  if (now?.key === undefined) return `the log is removed: ${rev} has one`;
  if (now.key.name !== before.key.name || encodeBase64(now.key.publicKey) !== encodeBase64(before.key.publicKey))
    return `the log's verifier is not ${rev}'s: its checkpoints are signed by another key or named otherwise`;
  if (before.checkpoint === undefined) return undefined;
  const newer = now.checkpoint ?? emptyCheckpoint(now.key.name);
  const consistency = await proveConsistency(new TileHashes(tiles, newer.size), before.checkpoint, newer);
  if (consistency.ok) return undefined;
  const oldSize = before.checkpoint.size;
  if (consistency.reason === "smaller")
    return `the log is truncated: size ${newer.size}, smaller than ${rev}'s ${oldSize}`;
  return `the log is rewritten: no consistency proof shows its first ${oldSize} entries to be ${rev}'s log`;
}
