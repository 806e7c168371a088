/**
 * The log's files in `content/_log/` (issue 26): `verifier` (the signed-note verifier key,
 * `<origin>+<keyid>+<key>`), `checkpoint` (the signed checkpoint), and the tiles and entry
 * bundles at their tlog-tiles paths. A log is opened only once all of it verifies: the
 * checkpoint with the verifier, the tiles and bundles against the checkpoint's root, and
 * those of earlier sizes it keeps against those (earlier-tiles.ts).
 * Written new files first and the checkpoint last, each atomically, so that a process
 * killed at any instant leaves the previous log or the new one: files past the previous
 * checkpoint's size are not part of its log, and the next append removes them first.
 * The checkpoint's latest-map line must be the map its entries make (latest-map.ts): the
 * build serves that map's buckets, and a client proves a UMID's latest entry with them.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { auditLog } from "../../core/tlog/audit.ts";
import { earlierTileFault, pastTree } from "../../core/tlog/earlier-tiles.ts";
import { type Checkpoint, openCheckpoint } from "../../core/tlog/checkpoint.ts";
import { extendedLatestMap, type LatestMap, latestMap, parseLatestLine } from "../../core/tlog/latest-map.ts";
import { EMPTY_TREE_ROOT, sameHash, treeRoot } from "../../core/tlog/merkle.ts";
import { parseNote } from "../../core/tlog/note.ts";
import { type NoteKey, parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { TileHashes, type TileStore } from "../../core/tlog/tile-hashes.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { quoted } from "../../core/excerpt.ts";
import { type LoggedEntries, type LoggedFault, LoggedReader } from "./log-entries.ts";
import { decodeLogState, encodeLogState, fileDigest, type LogState, logStateKey } from "./log-state.ts";
import type { StateStore } from "./state-store.ts";

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

/**
 * The log in `dir`, opened. With `states`, the log's verified state (log-state.ts) is taken from there when it is
 * bound to what is on disk now, and only what was added since is read; the state of the log opened is put back. A
 * state that is missing, damaged, foreign or does not fit is an audit of the whole log, and so is any fault the
 * shorter way finds: the fault a log is refused with is always the whole audit's.
 */
export async function openLog(dir: string, states?: StateStore): Promise<OpenedLog> {
  if (existsSync(dir) && !statSync(dir).isDirectory()) return { ok: false, file: ".", reason: "is not a folder" };
  const verifier = await readOptional(join(dir, VERIFIER_FILE));
  const signed = await openSignedLog(verifier, await readOptional(join(dir, CHECKPOINT_FILE)));
  if (!signed.ok) return signed;
  if (signed.checkpoint === undefined) return { ...signed, logged: NOTHING_LOGGED, map: undefined };
  const checkpointed = signed as SignedCheckpoint;
  const key = states === undefined ? undefined : logStateKey(verifier!);
  const stored = key === undefined ? undefined : await states!.get(key);
  const state = stored === undefined ? undefined : await decodeLogState(stored);
  const store = new DigestingTileStore(fileTileStore(dir));
  const warm = state === undefined ? undefined : await openSince(dir, checkpointed, state, store);
  if (warm !== undefined) {
    if (warm.changed) await states!.put(key!, encodeLogState(warm.state));
    return warm.log;
  }
  const cold = await auditWhole(dir, checkpointed, new DigestingTileStore(fileTileStore(dir)));
  if (cold.ok && key !== undefined) await states!.put(key, encodeLogState(cold.state));
  return cold.ok ? cold.log : cold;
}

type SignedCheckpoint = SignedLog & { checkpoint: Checkpoint; signedCheckpoint: Uint8Array };

/** A log opened, and the state to keep of it. */
interface Verified {
  ok: true;
  log: AuditedLog;
  state: LogState;
}

/** The whole log audited: every tile and bundle of the checkpoint's tree read and proven, every entry read. */
async function auditWhole(
  dir: string,
  signed: SignedCheckpoint,
  store: DigestingTileStore,
): Promise<Verified | LogFault> {
  const { size, rootHash, extensions } = signed.checkpoint;
  const logged = new LoggedReader();
  const audit = await auditLog(store, size, rootHash, (entries, path) => logged.read(entries, path));
  if (logged.fault !== undefined) return loggedFault(logged.fault);
  if (!audit.ok) return { ok: false, file: audit.path, reason: `${audit.reason} for the checkpoint's tree` };
  const earlier = await earlierTileFault(store, await tileFiles(dir), size);
  if (earlier !== undefined)
    return {
      ok: false,
      file: earlier.path,
      reason: "not the start of the checkpoint's tile: an earlier size's, edited",
    };
  const map = await latestMap(logged.umids);
  if (!commits(extensions, map))
    return { ok: false, file: CHECKPOINT_FILE, reason: "its latest-map line is not the map its entries make" };
  const state = { signedCheckpoint: signed.signedCheckpoint, files: store.digests, latest: logged.latest, map };
  return { ok: true, log: { ...signed, logged, map }, state };
}

/**
 * The log opened from `state`, reading only what its checkpoint added since the state's, when the state is bound to
 * what is on disk now: its checkpoint verifies with the log's key now and is not newer than the log's, every file it
 * read has the same SHA-256 now, and the tiles of its tree hash to its checkpoint's root. Undefined when it is not, and
 * at any fault: the whole audit says which. `changed`: the state is to be written anew (worthKeeping).
 */
async function openSince(
  dir: string,
  signed: SignedCheckpoint,
  state: LogState,
  store: DigestingTileStore,
): Promise<{ log: AuditedLog; state: LogState; changed: boolean } | undefined> {
  const opened = await openCheckpoint(state.signedCheckpoint, signed.key!, signed.key!.name);
  if (!opened.ok) return undefined;
  const before = opened.checkpoint;
  const { size, rootHash, extensions } = signed.checkpoint;
  // The same checkpoint, its cosignatures aside: witnesses cosigning it again change the file, not the tree.
  const same = sameText(state.signedCheckpoint, signed.signedCheckpoint);
  if (before.size > size || (before.size === size && !same)) return undefined;
  if (!(await holdsDigests(dir, state.files))) return undefined;
  const tiles = new TileHashes(store, before.size);
  if (!sameHash(await treeRoot(tiles, before.size).catch(() => EMPTY_TREE_ROOT), before.rootHash)) return undefined;
  const logged = new LoggedReader(0, state.latest, before.size);
  const visit = (entries: readonly Uint8Array[], path: string) => logged.read(entries, path);
  const audit = same ? undefined : await auditLog(store, size, rootHash, visit, before.size);
  if (audit?.ok === false || logged.fault !== undefined) return undefined;
  const added = (await tileFiles(dir)).filter((path) => !state.files.has(path));
  if ((await earlierTileFault(store, added, size)) !== undefined) return undefined;
  const map = same ? state.map : await extendedLatestMap(state.map, logged.umids, before.size);
  if (!commits(extensions, map)) return undefined;
  const files = new Map([...state.files, ...store.digests]);
  const changed = same
    ? files.size !== state.files.size || !sameBytes(state.signedCheckpoint, signed.signedCheckpoint)
    : worthKeeping(size - before.size, size);
  const next = { signedCheckpoint: signed.signedCheckpoint, files, latest: logged.latest, map };
  return { log: { ...signed, logged, map }, state: next, changed };
}

/**
 * Whether a state that is `added` entries behind a log of `size` is worth writing anew. Writing one costs the whole
 * state; reading a few more entries next time costs little. So a state is kept again once it is a sixty-fourth of the
 * log behind, or 4,096 entries: a run that adds 20 entries to 20,000 writes nothing, and the next reads 40.
 */
function worthKeeping(added: number, size: number): boolean {
  return added * 64 >= size || added >= 4096;
}

/** Whether the checkpoint's latest-map line is `map`'s. */
function commits(extensions: readonly string[], map: LatestMap): boolean {
  const committed = parseLatestLine(extensions);
  return committed?.bits === map.bits && sameHash(committed.root, map.root);
}

/** Whether each of `files` (by path under `dir`) has the digest given now. */
async function holdsDigests(dir: string, files: ReadonlyMap<string, string>): Promise<boolean> {
  const paths = [...files.keys()];
  for (let at = 0; at < paths.length; at += READ_BATCH) {
    const batch = paths.slice(at, at + READ_BATCH);
    const read = await Promise.all(batch.map((path) => readOptional(join(dir, path))));
    if (read.some((bytes, i) => bytes === undefined || fileDigest(bytes) !== files.get(batch[i]!))) return false;
  }
  return true;
}

/** Files read at once: enough to keep the disk busy, few enough to stay under any limit of open files. */
const READ_BATCH = 64;

/** A store that keeps the digest of every file it reads: what a state binds itself to. */
class DigestingTileStore implements TileStore {
  readonly digests = new Map<string, string>();

  constructor(private readonly store: TileStore) {}

  async read(path: string): Promise<Uint8Array | undefined> {
    const bytes = await this.store.read(path);
    if (bytes !== undefined && !this.digests.has(path)) this.digests.set(path, fileDigest(bytes));
    return bytes;
  }
}

/** Whether two signed notes have the same text (each is verified by the log's key before). */
function sameText(a: Uint8Array, b: Uint8Array): boolean {
  const [one, other] = [parseNote(a), parseNote(b)];
  return one !== undefined && one.text === other?.text;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
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

/** The log a content folder keeps, opened (with `states`, as openLog does); undefined when it keeps none. */
export async function openContentLog(contentDir: string, states?: StateStore): Promise<ContentLog | undefined> {
  const dir = join(contentDir, LOG_FOLDER);
  return existsSync(dir) ? { dir, opened: await openLog(dir, states) } : undefined;
}

const NOTHING_LOGGED: LoggedEntries = { latest: new Map() };

/** The checkpoint of a log that has none yet: no entries. */
export function emptyCheckpoint(origin: string): Checkpoint {
  return { origin, size: 0, rootHash: EMPTY_TREE_ROOT, extensions: [] };
}

/**
 * Writes the tiles and bundles of an append to the tree of `oldSize` entries, the verifier if new, then the signed
 * checkpoint; first removes what a killed append left past that tree (pastTree), which this append's other entries
 * would otherwise leave behind as an earlier size's tile that is not one.
 */
export async function writeLog(
  dir: string,
  oldSize: number,
  files: ReadonlyMap<string, Uint8Array>,
  signedCheckpoint: string,
  verifier?: string,
): Promise<void> {
  for (const path of pastTree(await tileFiles(dir), oldSize)) await rm(join(dir, path), { force: true });
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
