/**
 * The verification cache that `check` and `build` share (docs/security.md, "The verification cache"):
 * for each manifest file, what its check concluded, keyed by the SHA-256 of the run's scope
 * (the tool's identity and every setting a verdict depends on), the file's name in its
 * content root, and the file's bytes; with what else the verdict read (verdict-reads.ts)
 * and what it found there. Expiry is never kept: each run judges it again from the times
 * kept. What a run checks across files (one file per UMID, `_routes.json`) is not cached.
 * Besides its key, an entry may have aliases that find it without reading its file
 * (file-identity.ts): the git blob id or the status of the bytes it verified.
 *
 * One file, written whole by the store's one writer (scripts/store/atomic-write.ts), so
 * that a reader finds the old file or the new, never a part. Its first line holds the
 * SHA-256 of what follows the key table: a file that does not match it, or whose tables do
 * not fit together, is ignored as if absent and rebuilt. Then come binary tables, loaded
 * without parsing: the keys and aliases, in the store's one sorted-table format with its
 * own header and digest (the table the workers search: known-keys.ts); the bodies' digests; and
 * for each entry, when it was last used, where its JSON ends, what it read and found, and
 * whether it has a body and an error. Then what entries read and found, as JSON, once for
 * all that share it (most share one pin); then the entries' JSON, one after another. An
 * entry is parsed only when a run recalls it, and one of the wrong shape is dropped and its
 * file checked again; an entry kept unparsed is copied as it stands. A million entries are
 * about 250 MB, which a warm run reads and hashes in well under a second here. Entries a
 * run did not use (another branch's, or production's beside a preview's) are kept, the
 * most recently used first, while they number no more than those it used plus 1,000.
 * Files a run takes a shard at a time from their summaries (shard-summaries.ts) use no
 * entry here: the summaries keep them, so that this file holds what runs recalled or added
 * one by one, and a warm run reads and writes what changed, not the registry.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { isRuleId, SEVERITIES } from "../../core/rules/index.ts";
import type { Settings } from "../config.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import { AddedEntries, type Alias } from "./added-entries.ts";
import { BlobStore } from "../store/blob-store.ts";
import { ShardSummaries, type Summary, type SummaryRow } from "./shard-summaries.ts";
import { KEY_KINDS, KeyRows, KnownKeys, mergedTable, ROW_BYTES } from "./known-keys.ts";
import { readFully, readInto } from "../read/read-fully.ts";
import { writeAtomically } from "../store/atomic-write.ts";
import { KEPT_BEYOND_USED, MAX_CACHE_FILE_BYTES } from "../store/limits.ts";
import { NotACacheFile, openRegularFile } from "../store/regular-file.ts";
import { KEY_BYTES, readTable, SortedTable, tableParts } from "../store/sorted-table.ts";
import { sweep } from "../store/sweep.ts";
import { writeParts } from "../store/write-parts.ts";
import { toolIdentity } from "./tool-identity.ts";
import { found, type ReadContext, type VerdictReads } from "./verdict-reads.ts";
import { appendAll } from "../../core/append-all.ts";

const FILE = "verification.json";
const FORMAT = 7;
const KEYS_FORMAT = "manifest-resolver verification keys 1";
/** The blob store's folder in the cache folder; `bodies` is where a version before it kept the bodies. */
const BLOBS = "blobs";
const LEGACY_BODIES = "bodies";
/** The first line's length, spaces included: written last, once the digest of the rest is known. */
const HEADER_BYTES = 160;
/** Bytes gathered into one write, or read at once: few system calls, never the whole file in memory. */
const WRITE_BYTES = 4 * 1024 * 1024;
const READ_BYTES = WRITE_BYTES;
/** What is read of the entries' JSON for one entry recalled, and kept for the next: one read per thousands of them. */
const BLOCK_BYTES = 256 * 1024;
/** Each entry's row of the entry table: last used (float64), end of its JSON, its reads' index, FLAGS (uint32 each). */
const ENTRY_ROW_BYTES = 20;
const FLAGS = { body: 1, error: 2 } as const;

export type { Alias } from "./added-entries.ts";

/** A diagnostic as kept: its file is the one the entry is for, wherever that is now displayed. */
export type KeptDiagnostic = Omit<Diagnostic, "file">;

/**
 * The members whose places an entry keeps, to place what a recalled result reports there
 * without reading its file: the @id (named by the rules across files), and the times
 * freshness reads.
 */
export const PLACED_MEMBERS: readonly string[] = ["/@id", "/issuedAt", "/expiresAt"];

/** Line and column of each of PLACED_MEMBERS in turn; 0, 0 for one the file lacks: numbers, for a million entries. */
export type KeptPlaces = number[];

/** A manifest's `signature.statusRef` and where it is (line, column). */
export interface KeptStatusRef {
  ref: string;
  line: number;
  column: number;
}

/** A body in the cache's blob store. */
export interface StoredBody {
  /** Its SHA-256, lowercase hex, as its ETag carries it. */
  digest: string;
  bytes: number;
}

/** What one file's check concluded, as the cache keeps it. */
export interface CachedVerdict {
  umid: string | null;
  /**
   * Its body, the canonical form, for a manifest that claims a UMID and is an object: the store
   * holds it only once published; a failing manifest's is kept for its digest alone.
   */
  body: StoredBody | null;
  /** `issuedAt` in milliseconds since the epoch, when it names an instant. */
  issuedAt: number | null;
  /** The values freshness reads (core/validate/freshness.ts), as written. */
  times: { issuedAt?: unknown; expiresAt?: unknown };
  places: KeptPlaces;
  legacy: string | null;
  reads: VerdictReads;
  found: string;
  /** What the check found but freshness. */
  diagnostics: KeptDiagnostic[];
  statusRef: KeptStatusRef | null;
}

/**
 * A verdict as a new entry keeps it: its JSON, its reads' JSON, its body's digest (hex; "" for none), and its flags.
 * Made where the file was checked, so that the thread that gathers a million results handles strings, not objects.
 */
export interface SerializedVerdict {
  json: string;
  reads: string;
  digest: string;
  flags: number;
}

export function serializedVerdict(v: CachedVerdict): SerializedVerdict {
  const statusRef = v.statusRef && ([v.statusRef.ref, v.statusRef.line, v.statusRef.column] as const);
  const entry: StoredEntry = [
    v.umid,
    v.body?.bytes ?? null,
    v.issuedAt,
    v.times,
    v.places,
    v.legacy,
    v.diagnostics,
    statusRef,
  ];
  return {
    json: JSON.stringify(entry),
    reads: JSON.stringify([v.reads, v.found]),
    digest: v.body?.digest ?? "",
    flags: (v.body === null ? 0 : FLAGS.body) | (v.diagnostics.some((d) => d.severity === "error") ? FLAGS.error : 0),
  };
}

/**
 * An entry's JSON: [umid, body bytes (null: no body), issuedAt, times, places, legacy,
 * diagnostics, statusRef ([ref, line, column] or null)]. When it was last used, and what it
 * read, are in its row of the entry table.
 */
type StoredEntry = [
  string | null,
  number | null,
  number | null,
  CachedVerdict["times"],
  KeptPlaces,
  string | null,
  KeptDiagnostic[],
  readonly [string, number, number] | null,
];

/** The scope of a run's keys: the tool's identity and the settings a verdict depends on. */
export function cacheScope(settings: Settings, tool = toolIdentity()): string {
  const { standardsUrl, contextUrl, resolverUrl, limits } = settings;
  return createHash("sha256")
    .update(JSON.stringify({ format: FORMAT, tool, standardsUrl, contextUrl, resolverUrl, limits }))
    .digest("base64url");
}

/** The key of a file's `bytes`, after `prefix` (`keyPrefix`): hashed in turn, never copied together. */
export function cacheKey(prefix: Uint8Array, bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(prefix).update(bytes).digest();
}

/** What precedes a file's bytes in its key: the scope and the file's name in its content root. */
export function keyPrefix(scope: string, name: string): Uint8Array {
  return Buffer.from(`${scope}\0${name}\0`);
}

/**
 * The entries a run may use: the table of every key, whether each may be used (shared memory, for the workers), and
 * each by its position.
 */
export interface UsableEntries {
  known: KnownKeys;
  usable: Uint8Array;
  /**
   * The verdict of the entry at `position`; undefined for an entry of the wrong shape, which is no longer usable (its
   * file is to be checked again) and is dropped when the cache is saved.
   */
  verdictAt(position: number): CachedVerdict | undefined;
  /** Keeps `alias` for the entry at `position`, found by reading its file. */
  learn(position: number, alias: Alias): void;
  /**
   * The verdict of a summary's row `i` (shard-summaries.ts), as a usable entry's is used: undefined when what it read
   * no longer finds what it found, a build's store lacks its body, or it is not of an entry's shape.
   */
  fromSummary(summary: Summary, i: number): CachedVerdict | undefined;
  /** The entry at `position` as its shard's summary keeps it, but what it was known by; what it read, as JSON. */
  rowAt(position: number): Omit<SummaryRow, "identity" | "dep"> & { dep: string };
}

export class VerificationCache {
  readonly #file: string;
  readonly #stored: Stored;
  readonly #added: AddedEntries;
  /** What entries read and found, each once; the stored ones first, so their indices stand. */
  readonly #deps: [VerdictReads, string][];
  readonly #depIndex: Map<string, number>;
  /** Which stored entries this run used (1), and which it found of the wrong shape (2). */
  readonly #used: Uint8Array;
  /** Aliases this run learnt of stored entries it recalled by reading their files. */
  readonly #learnt = new Map<number, Alias>();
  readonly #started = Date.now();
  /** Why the cache file on disk, or its blob store's index, was ignored, if one was. */
  readonly ignored?: string;
  /** The bodies, when a build uses the cache. */
  readonly blobs?: BlobStore;
  /** The summaries of shards of a content root's files (shard-summaries.ts). */
  readonly summaries: ShardSummaries;

  constructor(
    readonly dir: string,
    withBodies: boolean,
  ) {
    this.#file = join(dir, FILE);
    // A name no other run has, a killed one's included: process ids come round again, in a container at once.
    this.#added = new AddedEntries(`${this.#file}.${process.pid}-${randomBytes(4).toString("hex")}.added`);
    const loaded = load(this.#file);
    this.#stored = loaded.stored;
    this.#used = new Uint8Array(this.#stored.count);
    this.#deps = [...this.#stored.deps];
    this.#depIndex = new Map(this.#deps.map((dep, i) => [JSON.stringify(dep), i]));
    if (withBodies) this.blobs = new BlobStore(join(dir, BLOBS));
    const ignored = loaded.ignored ?? this.blobs?.ignored;
    if (ignored !== undefined) this.ignored = ignored;
    // A cache ignored is a cold run, its summaries' verdicts included: they are made again.
    this.summaries = new ShardSummaries(dir, { withBodies, unused: ignored !== undefined });
  }

  /**
   * The entries whose reads still find what they found in `context`; for a build, only
   * those whose body is in the store (the others are checked again, which writes it).
   */
  usable(context: ReadContext): UsableEntries {
    const stored = this.#stored;
    const stillFound = stored.deps.map(([reads, was]) => found(reads, context) === was);
    const usable = new Uint8Array(new SharedArrayBuffer(stored.count));
    for (let i = 0; i < stored.count; i++) {
      const flags = stored.flags(i);
      // A failing manifest's digest is kept for `check --summary`, but a build never publishes its body.
      const bodyHeld =
        this.blobs === undefined ||
        (flags & FLAGS.body) === 0 ||
        (flags & FLAGS.error) !== 0 ||
        this.blobs.has(stored.digestBytes(i));
      usable[i] = stillFound[stored.dep(i)] === true && bodyHeld ? 1 : 0;
    }
    const known = new KnownKeys(stored.table);
    /** Whether what each of a summary's entries read still finds what it found, by summary. */
    const standing = new WeakMap<Summary, boolean[]>();
    return {
      known,
      usable,
      fromSummary: (summary, i) => {
        const row = summary.rows[i]!;
        let stands = standing.get(summary);
        if (stands === undefined) {
          stands = summary.deps.map((dep) => isDep(dep) && found(dep[0], context) === dep[1]);
          standing.set(summary, stands);
        }
        const bodyHeld =
          this.blobs === undefined ||
          (row.flags & FLAGS.body) === 0 ||
          (row.flags & FLAGS.error) !== 0 ||
          this.blobs.has(row.digest);
        if (stands[row.dep] !== true || !bodyHeld) return undefined;
        return verdictOfEntry(row.entry, row.flags, summary.deps[row.dep] as [VerdictReads, string], row.digest);
      },
      rowAt: (position) => ({
        key: Buffer.from(stored.key(position)).toString("base64url"),
        json: stored.json(position),
        dep: JSON.stringify(stored.deps[stored.dep(position)]),
        digest: (stored.flags(position) & FLAGS.body) === 0 ? "" : stored.digest(position),
        flags: stored.flags(position),
      }),
      verdictAt: (position) => {
        const verdict = stored.verdict(position);
        if (verdict === undefined) {
          usable[position] = 0;
          this.#used[position] = 2;
          return undefined;
        }
        this.#used[position] = 1;
        return verdict;
      },
      learn: (position, alias) => this.#learnt.set(position, alias),
    };
  }

  /** Keeps a new entry, serialized by `serializedVerdict` (in the worker that checked its file). */
  add(key: Uint8Array, alias: Alias | undefined, verdict: SerializedVerdict): void {
    this.#added.add(key, alias, verdict.digest, verdict.json, this.#depOf(verdict.reads), verdict.flags);
  }

  /** The index of what an entry read and found (`reads`: their JSON), each kept once. */
  #depOf(reads: string): number {
    let i = this.#depIndex.get(reads);
    if (i === undefined) {
      i = this.#deps.push(JSON.parse(reads)) - 1;
      this.#depIndex.set(reads, i);
    }
    return i;
  }

  /**
   * Writes the entries used and added, and the most recent others (stored ones copied as
   * they stand, never parsed), as it goes; the digest goes into the fixed-length first line
   * last. Then saves the blob store, keeping the bodies the entries kept name. A run that
   * added and learnt nothing writes no entry.
   */
  save(): void {
    const added = this.#added;
    if (added.count === 0 && this.#learnt.size === 0) {
      // No entry changed, but a body may have been kept again: its entry recalled, its stored body found altered.
      this.#stored.entries.close();
      this.summaries.save();
      this.blobs?.save();
      return;
    }
    const stored = this.#stored;
    const old = new KnownKeys(stored.table);
    // An added entry of a stored entry's bytes replaces it; of another added entry's (a build begun in place and made
    // cold checks again what it checked), the last replaces the others.
    const newest = lastOfEachKey(added);
    const replaced = new Set(newest.map((j) => old.positionOf(added.key(j))));
    const kept: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < stored.count; i++) {
      if (replaced.has(i) || this.#used[i] === 2) continue;
      (this.#used[i] === 1 ? kept : others).push(i);
    }
    others.sort((a, b) => stored.usedAt(b) - stored.usedAt(a));
    appendAll(kept, others.slice(0, kept.length + newest.length + KEPT_BEYOND_USED));
    kept.sort((a, b) => a - b);
    const renumbered = new Int32Array(stored.count).fill(-1);
    kept.forEach((old, i) => {
      renumbered[old] = i;
    });

    const addedRows = new KeyRows();
    // An alias names one file's bytes: a learnt one replaces its entry's alias of that kind, and should two
    // entries claim one, this run's added entry wins.
    for (const [position, alias] of this.#learnt)
      if (renumbered[position]! >= 0) addedRows.add(alias.key, alias.kind, renumbered[position]!);
    newest.forEach((j, n) => {
      addedRows.add(added.key(j), KEY_KINDS.bytes, kept.length + n);
      const alias = added.alias(j);
      if (alias !== undefined) addedRows.add(alias.key, alias.kind, kept.length + n);
    });
    const table = mergedTable(
      old,
      (position, kind) =>
        kind !== KEY_KINDS.bytes && this.#learnt.get(position)?.kind === kind ? -1 : renumbered[position]!,
      addedRows,
    );

    const count = kept.length + newest.length;
    const digests = Buffer.alloc(count * KEY_BYTES);
    const rows = Buffer.alloc(count * ENTRY_ROW_BYTES);
    let end = 0;
    const row = (i: number, usedAt: number, length: number, dep: number, flags: number) => {
      end += length;
      rows.writeDoubleLE(usedAt, i * ENTRY_ROW_BYTES);
      rows.writeUInt32LE(end, i * ENTRY_ROW_BYTES + 8);
      rows.writeUInt32LE(dep, i * ENTRY_ROW_BYTES + 12);
      rows.writeUInt32LE(flags, i * ENTRY_ROW_BYTES + 16);
    };
    kept.forEach((old, i) => {
      digests.set(stored.digests.subarray(old * KEY_BYTES, (old + 1) * KEY_BYTES), i * KEY_BYTES);
      const usedAt = this.#used[old] === 1 ? this.#started : stored.usedAt(old);
      row(i, usedAt, stored.jsonBytes(old), stored.dep(old), stored.flags(old));
    });
    newest.forEach((j, n) => {
      digests.set(added.digest(j), (kept.length + n) * KEY_BYTES);
      row(kept.length + n, this.#started, added.jsonBytes(j), added.dep(j), added.flags(j));
    });
    const deps = Buffer.from(JSON.stringify(this.#deps));

    mkdirSync(this.dir, { recursive: true });
    try {
      writeAtomically(this.#file, (fd) => {
        const hash = createHash("sha256");
        const chunks: Uint8Array[] = [];
        let pending = 0;
        const flush = () => {
          for (const bytes of chunks) hash.update(bytes);
          writeParts(fd, chunks);
          chunks.length = 0;
          pending = 0;
        };
        const append = (bytes: Uint8Array) => {
          chunks.push(bytes);
          pending += bytes.byteLength;
          if (pending >= WRITE_BYTES) flush();
        };
        writeFileSync(fd, `${" ".repeat(HEADER_BYTES - 1)}\n`);
        // The key table carries its own digest; the header's covers what follows it.
        writeParts(fd, tableParts(KEYS_FORMAT, new SortedTable(table, ROW_BYTES)));
        for (const bytes of [digests, rows, deps]) append(bytes);
        // The kept entries' JSON as runs of neighbours (a few large copies, not a view of each), then the new ones'.
        for (const bytes of stored.jsonRuns(kept)) append(bytes);
        for (const bytes of added.json(newest)) append(bytes);
        flush();
        const header = JSON.stringify({
          format: FORMAT,
          count,
          deps: deps.byteLength,
          sha256: hash.digest("base64url"),
        });
        writeSync(fd, header.padEnd(HEADER_BYTES - 1), 0);
      });
    } finally {
      stored.entries.close();
      added.dispose();
      sweep(this.dir, {
        unnamed: (name) => (name.startsWith(`${FILE}.`) && name.endsWith(".added")) || name === LEGACY_BODIES,
      });
    }
    this.summaries.save();
    if (this.blobs === undefined) return;
    // The bodies the entries name, as a table to search: a million digests as strings would be 100 MB.
    const named = new KeyRows();
    for (let i = 0; i < count; i++)
      if ((rows.readUInt32LE(i * ENTRY_ROW_BYTES + 16) & FLAGS.body) !== 0)
        named.add(digests.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES), KEY_KINDS.bytes, 0);
    for (const digest of this.summaries.bodies) named.add(Buffer.from(digest, "hex"), KEY_KINDS.bytes, 0);
    this.blobs.save(named.table());
  }
}

/** The stored entries, over the file's bytes: nothing is parsed but what entries read and found. */
class Stored {
  readonly #rows: DataView;
  /** The row of each entry's key in the table, once `key` is asked for. */
  #keyRows: Int32Array | undefined;

  constructor(
    /** The keys and aliases, sorted, with their entries' positions (known-keys.ts). */
    readonly table: Uint8Array,
    /** Entry i's body digest at i × 32 (zeros for none). */
    readonly digests: Uint8Array,
    rows: Uint8Array,
    readonly deps: [VerdictReads, string][],
    /** The entries' JSON, one after another. */
    readonly entries: EntriesJson,
  ) {
    this.#rows = new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
  }

  get count(): number {
    return this.#rows.byteLength / ENTRY_ROW_BYTES;
  }

  usedAt(i: number): number {
    return this.#rows.getFloat64(i * ENTRY_ROW_BYTES, true);
  }

  end(i: number): number {
    return this.#rows.getUint32(i * ENTRY_ROW_BYTES + 8, true);
  }

  dep(i: number): number {
    return this.#rows.getUint32(i * ENTRY_ROW_BYTES + 12, true);
  }

  flags(i: number): number {
    return this.#rows.getUint32(i * ENTRY_ROW_BYTES + 16, true);
  }

  digest(i: number): string {
    return hex(this.digests, i);
  }

  digestBytes(i: number): Uint8Array {
    return this.digests.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES);
  }

  jsonBytes(i: number): number {
    return this.end(i) - this.#start(i);
  }

  /** The JSON of the entries `ascending` names, each run of neighbours read as a few large chunks. */
  *jsonRuns(ascending: readonly number[]): Iterable<Buffer> {
    for (let first = 0; first < ascending.length; ) {
      let last = first;
      while (last + 1 < ascending.length && ascending[last + 1] === ascending[last]! + 1) last++;
      const end = this.end(ascending[last]!);
      for (let at = this.#start(ascending[first]!); at < end; at += READ_BYTES)
        yield this.entries.read(at, Math.min(end, at + READ_BYTES));
      first = last + 1;
    }
  }

  #start(i: number): number {
    return i === 0 ? 0 : this.end(i - 1);
  }

  /** Whether the tables fit together: every JSON within the entries, every index within its table. */
  fits(): boolean {
    let end = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.end(i) < end || this.dep(i) >= this.deps.length || this.flags(i) > (FLAGS.body | FLAGS.error))
        return false;
      end = this.end(i);
    }
    return end === this.entries.byteLength && new KnownKeys(this.table).isTableOf(this.count);
  }

  /** Entry i's JSON, as it stands in the file. */
  json(i: number): string {
    return this.entries.read(this.#start(i), this.end(i)).toString("utf8");
  }

  /** Entry i's verdict, parsed now; undefined for one of the wrong shape. */
  verdict(i: number): CachedVerdict | undefined {
    let entry: unknown;
    try {
      entry = JSON.parse(this.json(i));
    } catch {
      return undefined;
    }
    return this.verdictOf(i, entry);
  }

  /** Entry i's verdict, from `entry`, its JSON parsed; undefined for one of the wrong shape. */
  verdictOf(i: number, entry: unknown): CachedVerdict | undefined {
    return verdictOfEntry(entry, this.flags(i), this.deps[this.dep(i)]!, this.digest(i));
  }

  /** Entry i's key: the key of its bytes in the table (made once, when first asked for). */
  key(i: number): Uint8Array {
    if (this.#keyRows === undefined) {
      const known = new KnownKeys(this.table);
      this.#keyRows = new Int32Array(this.count);
      for (let row = 0; row < known.size; row++) {
        const { kind, position } = known.rowAt(row);
        if (kind === KEY_KINDS.bytes) this.#keyRows[position] = row;
      }
    }
    const at = this.#keyRows[i]! * ROW_BYTES;
    return this.table.subarray(at, at + KEY_BYTES);
  }
}

/**
 * The entries' JSON where it lies in the cache file, read when an entry is recalled or kept: a million entries' JSON
 * (about 160 MB) is never all in memory. The file stays open, so a run that replaces it meanwhile reads the old one.
 */
class EntriesJson {
  #fd: number | undefined;
  /** The block read last, and where it starts: a run recalls entries mostly in the order they were written. */
  #block: Buffer = Buffer.alloc(0);
  #blockStart = 0;

  constructor(
    fd: number | undefined,
    readonly offset: number,
    readonly byteLength: number,
  ) {
    this.#fd = fd;
  }

  read(start: number, end: number): Buffer {
    if (end === start) return Buffer.alloc(0);
    if (end - start > BLOCK_BYTES) return readFully(this.#fd!, end - start, this.offset + start);
    if (start < this.#blockStart || end > this.#blockStart + this.#block.byteLength) {
      this.#blockStart = start;
      this.#block = readFully(this.#fd!, Math.min(BLOCK_BYTES, this.byteLength - start), this.offset + start);
    }
    return this.#block.subarray(start - this.#blockStart, end - this.#blockStart);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

const EMPTY = new Stored(
  new Uint8Array(new SharedArrayBuffer(0)),
  new Uint8Array(0),
  new Uint8Array(0),
  [],
  new EntriesJson(undefined, 0, 0),
);

/**
 * The stored entries; none, with why, when the file is not to be trusted. Every byte is hashed, but only the tables
 * are kept; the key table in shared memory, as the workers read it.
 */
function load(file: string): { stored: Stored; ignored?: string } {
  const ignored = (why: string) => ({ stored: EMPTY, ignored: why });
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch (error) {
    // None yet is the usual case, and says nothing; anything else in its place is worth a word.
    if (error instanceof NotACacheFile && error.message !== "no such file") return ignored(`it is ${error.message}`);
    return { stored: EMPTY };
  }
  let kept = false;
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_CACHE_FILE_BYTES) return ignored(`it is larger than ${MAX_CACHE_FILE_BYTES} bytes`);
    const head = readFully(fd, HEADER_BYTES);
    const newline = head.indexOf(10);
    const header = JSON.parse(head.toString("utf8", 0, newline < 0 ? head.byteLength : newline));
    if (header?.format !== FORMAT) return ignored(`its format is not ${FORMAT}`);
    const { count, deps: depBytes } = header as Record<string, unknown>;
    if (![count, depBytes].every((n) => Number.isSafeInteger(n) && (n as number) >= 0))
      return ignored("it holds an entry of the wrong shape");
    // The table the workers search, in shared memory.
    const keys = readTable(fd, newline + 1, KEYS_FORMAT, ROW_BYTES, size, true);
    if ("why" in keys) return ignored(`its table of keys ${keys.why}`);
    const sizes = [(count as number) * KEY_BYTES, (count as number) * ENTRY_ROW_BYTES, depBytes as number];
    let at = keys.end;
    if (at + sizes[0]! + sizes[1]! + sizes[2]! > size)
      return ignored("its content does not match its digest (truncated or altered)");
    const hash = createHash("sha256");
    const part = (target: Uint8Array) => {
      readInto(fd, target, at);
      hash.update(target);
      at += target.byteLength;
      return target;
    };
    const table = keys.table.rows;
    const [digests, rows, depsJson] = sizes.map((n) => part(Buffer.alloc(n)));
    const entries = new EntriesJson(fd, at, size - at);
    for (let from = 0; from < entries.byteLength; from += READ_BYTES)
      hash.update(entries.read(from, Math.min(entries.byteLength, from + READ_BYTES)));
    if (header.sha256 !== hash.digest("base64url"))
      return ignored("its content does not match its digest (truncated or altered)");
    const deps: unknown = JSON.parse(new TextDecoder().decode(depsJson));
    if (!Array.isArray(deps) || !deps.every(isDep)) return ignored("it holds an entry of the wrong shape");
    const stored = new Stored(table, digests!, rows!, deps, entries);
    if (!stored.fits()) return ignored("it holds an entry of the wrong shape");
    kept = true;
    return { stored };
  } catch {
    return ignored("it cannot be read (truncated or altered)");
  } finally {
    if (!kept) closeSync(fd);
  }
}

/** The added entries to keep, in the order added: of those with one key, the last. */
function lastOfEachKey(added: AddedEntries): number[] {
  const keys = new KeyRows();
  for (let j = 0; j < added.count; j++) keys.add(added.key(j), KEY_KINDS.bytes, j);
  const table = keys.table();
  const newest: number[] = [];
  for (let row = 0; row < table.size; row++) newest.push(table.rowAt(row).position);
  return newest.sort((a, b) => a - b);
}

/** An entry's verdict from its JSON, parsed, its flags, what it read and found, and its body's digest (hex). */
function verdictOfEntry(
  entry: unknown,
  flags: number,
  [reads, was]: [VerdictReads, string],
  digest: string,
): CachedVerdict | undefined {
  if (!isEntry(entry) || flags > (FLAGS.body | FLAGS.error)) return undefined;
  if ((entry[1] !== null) !== ((flags & FLAGS.body) !== 0)) return undefined;
  if (entry[6].some((d) => d.severity === "error") !== ((flags & FLAGS.error) !== 0)) return undefined;
  const [umid, bytes, issuedAt, times, places, legacy, diagnostics, kept] = entry;
  const body = bytes === null ? null : { digest, bytes };
  const statusRef = kept === null ? null : { ref: kept[0], line: kept[1], column: kept[2] };
  return { umid, body, issuedAt, times, places, legacy, reads, found: was, diagnostics, statusRef };
}

function hex(table: Uint8Array, i: number): string {
  return Buffer.from(table.buffer, table.byteOffset + i * KEY_BYTES, KEY_BYTES).toString("hex");
}

function isDep(dep: unknown): dep is [VerdictReads, string] {
  return (
    Array.isArray(dep) &&
    dep.length === 2 &&
    typeof dep[0] === "object" &&
    dep[0] !== null &&
    typeof dep[1] === "string"
  );
}

function isEntry(e: unknown): e is StoredEntry {
  return (
    Array.isArray(e) &&
    e.length === 8 &&
    (e[0] === null || typeof e[0] === "string") &&
    (e[1] === null || Number.isSafeInteger(e[1])) &&
    (e[2] === null || typeof e[2] === "number") &&
    typeof e[3] === "object" &&
    e[3] !== null &&
    isKeptPlaces(e[4]) &&
    (e[5] === null || typeof e[5] === "string") &&
    Array.isArray(e[6]) &&
    e[6].every(
      (d: KeptDiagnostic) =>
        typeof d === "object" &&
        d !== null &&
        (SEVERITIES as readonly unknown[]).includes(d.severity) &&
        isRuleId(d.rule) &&
        typeof d.message === "string",
    ) &&
    (e[7] === null ||
      (Array.isArray(e[7]) &&
        typeof e[7][0] === "string" &&
        Number.isSafeInteger(e[7][1]) &&
        Number.isSafeInteger(e[7][2])))
  );
}

function isKeptPlaces(places: unknown): places is KeptPlaces {
  return (
    Array.isArray(places) &&
    places.length === 2 * PLACED_MEMBERS.length &&
    places.every((n) => Number.isSafeInteger(n) && n >= 0)
  );
}
