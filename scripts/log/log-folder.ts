/**
 * The log's files in `content/_log/` (issue 26): `verifier` (the signed-note verifier key,
 * `<origin>+<keyid>+<key>`), `checkpoint` (the signed checkpoint), and the tiles and entry
 * bundles at their tlog-tiles paths. A log is opened only once all of it verifies: the
 * checkpoint with the verifier, the tiles and bundles against the checkpoint's root, and
 * those of earlier sizes it keeps against those (earlier-tiles.ts).
 * Written new files first and the checkpoint last, each atomically, so that a process
 * killed at any instant leaves the previous log or the new one: files past the previous
 * checkpoint's size are not part of its log, and are written over by the next append.
 * The checkpoint's latest-map line must be the map its entries make (latest-map.ts): the
 * build serves that map's buckets, and a client proves a UMID's latest entry with them.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { auditLog } from "../../core/tlog/audit.ts";
import { earlierTileFault } from "../../core/tlog/earlier-tiles.ts";
import { type Checkpoint, openCheckpoint } from "../../core/tlog/checkpoint.ts";
import { type LatestMap, latestMap, parseLatestLine } from "../../core/tlog/latest-map.ts";
import { EMPTY_TREE_ROOT, sameHash } from "../../core/tlog/merkle.ts";
import { type NoteKey, parseVerifierKey } from "../../core/tlog/note-keys.ts";
import type { TileStore } from "../../core/tlog/tile-hashes.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { quoted } from "../../core/excerpt.ts";
import { type LoggedEntries, type LoggedFault, LoggedReader } from "./log-entries.ts";

export const LOG_FOLDER = "_log";
export const CHECKPOINT_FILE = "checkpoint";
export const VERIFIER_FILE = "verifier";

/** A log's key and checkpoint. `key` undefined: there is no log yet. With a verifier and no checkpoint, it is empty. */
export interface SignedLog {
  ok: true;
  key: NoteKey | undefined;
  checkpoint: Checkpoint | undefined;
  /** The checkpoint's signed note, as read. */
  signedCheckpoint: Uint8Array | undefined;
}

/**
 * Why a log does not verify: `file` is the one found wrong, relative to the log's folder. `rule`, when it holds a state
 * logged after a revocation: it verifies, but no log may say that.
 */
export interface LogFault {
  ok: false;
  file: string;
  reason: string;
  rule?: "log/revocation-undone";
}

/** A log whose tiles and bundles hash to its checkpoint's root, and whose checkpoint commits to its latest map. */
export type AuditedLog = SignedLog & {
  logged: LoggedEntries;
  /** The latest map the checkpoint commits to; undefined with no checkpoint. */
  map: LatestMap | undefined;
};

export type OpenedLog = AuditedLog | LogFault;

/** The tiles and bundles under `dir`, by their tlog-tiles path. */
export function fileTileStore(dir: string): TileStore {
  return { read: (path) => readOptional(join(dir, path)) };
}

export async function openLog(dir: string): Promise<OpenedLog> {
  if (existsSync(dir) && !statSync(dir).isDirectory()) return { ok: false, file: ".", reason: "is not a folder" };
  const signed = await openSignedLog(
    await readOptional(join(dir, VERIFIER_FILE)),
    await readOptional(join(dir, CHECKPOINT_FILE)),
  );
  if (!signed.ok) return signed;
  if (signed.checkpoint === undefined) return { ...signed, logged: NOTHING_LOGGED, map: undefined };
  const { size, rootHash, extensions } = signed.checkpoint;
  const logged = new LoggedReader();
  const audit = await auditLog(fileTileStore(dir), size, rootHash, (entries, path) => logged.read(entries, path));
  if (logged.fault !== undefined) return loggedFault(logged.fault);
  if (!audit.ok) return { ok: false, file: audit.path, reason: `${audit.reason} for the checkpoint's tree` };
  const earlier = await earlierTileFault(fileTileStore(dir), await tileFiles(dir), size);
  if (earlier !== undefined)
    return {
      ok: false,
      file: earlier.path,
      reason: "not the start of the checkpoint's tile: an earlier size's, edited",
    };
  const map = await latestMap(logged.umids);
  const committed = parseLatestLine(extensions);
  if (committed?.bits !== map.bits || !sameHash(committed.root, map.root))
    return { ok: false, file: CHECKPOINT_FILE, reason: "its latest-map line is not the map its entries make" };
  return { ...signed, logged, map };
}

/** The fault of a log whose entries, proven, are no log this tool writes. */
export function loggedFault(fault: LoggedFault): LogFault {
  if (fault.reason === "malformed")
    return { ok: false, file: fault.path, reason: `holds an entry this log does not write (entry ${fault.index})` };
  const { umid, state } = fault.entry;
  return {
    ok: false,
    file: fault.path,
    reason: `entry ${fault.index} logs ${quoted(umid)} ${state} after its revocation: revocation is permanent`,
    rule: "log/revocation-undone",
  };
}

/**
 * A log's key and checkpoint, from the bytes of its verifier and checkpoint files (undefined: no such file), once the
 * checkpoint verifies with the key; its tiles are not read.
 */
export async function openSignedLog(
  verifierBytes: Uint8Array | undefined,
  note: Uint8Array | undefined,
): Promise<SignedLog | LogFault> {
  if (verifierBytes === undefined) {
    return note === undefined
      ? { ok: true, key: undefined, checkpoint: undefined, signedCheckpoint: undefined }
      : { ok: false, file: VERIFIER_FILE, reason: "missing: nothing can verify the checkpoint" };
  }
  const key = parseVerifierKey(new TextDecoder().decode(verifierBytes).trimEnd());
  if (key === undefined) return { ok: false, file: VERIFIER_FILE, reason: "not a signed-note verifier key" };
  if (note === undefined) return { ok: true, key, checkpoint: undefined, signedCheckpoint: undefined };
  const opened = await openCheckpoint(note, key, key.name);
  if (!opened.ok) return { ok: false, file: CHECKPOINT_FILE, reason: `does not verify (${opened.reason})` };
  return { ok: true, key, checkpoint: opened.checkpoint, signedCheckpoint: note };
}

/** The log a content folder keeps (`content/_log/`): its folder, and it opened. */
export interface ContentLog {
  dir: string;
  opened: OpenedLog;
}

/** The log a content folder keeps, opened; undefined when it keeps none. */
export async function openContentLog(contentDir: string): Promise<ContentLog | undefined> {
  const dir = join(contentDir, LOG_FOLDER);
  return existsSync(dir) ? { dir, opened: await openLog(dir) } : undefined;
}

const NOTHING_LOGGED: LoggedEntries = { latest: new Map(), umids: [] };

/** The checkpoint of a log that has none yet: no entries. */
export function emptyCheckpoint(origin: string): Checkpoint {
  return { origin, size: 0, rootHash: EMPTY_TREE_ROOT, extensions: [] };
}

/** Writes the tiles and bundles of an append, the verifier if new, then the signed checkpoint. */
export async function writeLog(
  dir: string,
  files: ReadonlyMap<string, Uint8Array>,
  signedCheckpoint: string,
  verifier?: string,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [path, bytes] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFileAtomically(join(dir, path), bytes);
  }
  if (verifier !== undefined) await writeFileAtomically(join(dir, VERIFIER_FILE), `${verifier}\n`);
  await writeFileAtomically(join(dir, CHECKPOINT_FILE), signedCheckpoint);
}

/** The files under `dir`'s tile folder, by their path from `dir` (with slashes), in no order. */
async function tileFiles(dir: string): Promise<string[]> {
  const tiles = join(dir, "tile");
  if (!existsSync(tiles)) return [];
  const entries = await readdir(tiles, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

async function readOptional(path: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    // ENOTDIR: a file where a folder of the path should be; what the path names is not there either.
    const { code } = error as NodeJS.ErrnoException;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
