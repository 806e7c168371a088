/**
 * The content-addressed store of the cache folder: blobs found by their SHA-256. `put`
 * files bytes under their digest; `get` gives them back only while they still have it.
 * A build keeps there the bodies it published (the digest their ETag carries, which the
 * verification cache's entries keep apart from the bodies), and publishes an unchanged
 * manifest's body from here instead of making it again from its file: Netlify clones the
 * repository afresh for every build, but keeps node_modules/.cache.
 *
 * Blobs are appended to segments (`seg-` and 8 hex digits, a random id per run that writes
 * one), so that keeping a cold build's bodies is a few sequential writes, not a file each.
 * One `index` names them: a sorted table (sorted-table.ts) of where each blob is, searched
 * in place, written whole by the one writer (atomic-write.ts) once per run, when the store
 * is saved. A run that two others overlap keeps what the last rename names, and a blob the
 * other index named is then missing, and made again. An index that does not match its
 * digest is ignored, with a warning, and the blobs made again.
 *
 * A build keeps its outputs' states here too (kept-state.ts), which no entry names: `kept`
 * lists the MAX_KEPT_BLOBS kept most recently, which a save keeps whatever it is asked to.
 *
 * The store is a folder any process of the user's can write, and a shared CI cache is
 * restored from elsewhere: a blob is given only when its bytes still have the digest it is
 * filed under, and is copied into the output, never linked, so that nothing done to a
 * served file can reach the store or a later build. A segment is read only as a regular
 * file; a kill or a full disk leaves a segment no index names, which the sweep removes
 * once stale (sweep.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readFully } from "../read/read-fully.ts";
import { writeAtomically } from "./atomic-write.ts";
import { MAX_INDEX_BYTES, MAX_KEPT_BLOBS, MAX_SEGMENTS } from "./limits.ts";
import { NotACacheFile, openRegularFile } from "./regular-file.ts";
import { compareKeyAt, KEY_BYTES, readTable, SortedTable, TableRows, tableParts } from "./sorted-table.ts";
import { sweep } from "./sweep.ts";
import { writeParts } from "./write-parts.ts";

const INDEX = "index";
/** The blobs kept whatever a save wants, most recently kept first, as hex digests: one a line. */
const KEPT = "kept";
const INDEX_FORMAT = "manifest-resolver blob index 1";
/** A row of the index: the digest, the segment's id and the blob's length (uint32 each), its offset (float64). */
const ROW_BYTES = 48;
const SEGMENT_AT = KEY_BYTES;
const LENGTH_AT = KEY_BYTES + 4;
const OFFSET_AT = KEY_BYTES + 8;
/** Read-only: an edit by mistake is refused, though a `get` checks every blob all the same. */
const BLOB_MODE = 0o444;
/** Bytes gathered into one write. */
const WRITE_BYTES = 4 * 1024 * 1024;
const SEGMENT_NAME = /^seg-([0-9a-f]{8})$/;

/**
 * What `get` found: the blob, none (`missing`), or bytes that are not the blob of their digest (`altered`, now
 * dropped).
 */
export type StoredBlob = Uint8Array | "missing" | "altered";

/** Digests as a table (the rows' keys): which blobs are still wanted. */
export interface WantedBlobs {
  positionOf(digest: Uint8Array): number;
}

export class BlobStore {
  /** The index's rows at the start of the run, sorted by digest. */
  readonly #index: SortedTable;
  /** Rows whose blob a `get` did not find (1): not held, and dropped at the next write of the index. */
  readonly #dropped: Uint8Array;
  /** This run's segment, made at its first write. */
  readonly #segment: SegmentWriter;
  /** The rows of the blobs this run put, in its segment, in the order put. */
  #added = new TableRows(ROW_BYTES);
  /** Each segment read, open once: its descriptor and size, or `missing` when it holds no blob this run. */
  readonly #readers = new Map<number, SegmentReader | "missing">();
  /** Whether the store was saved: its segment is then closed. */
  #saved = false;
  /**
   * The blobs (hex digests) this run keeps whatever the save's `wanted` says: the states of the outputs it wrote or
   * read, then those runs before it kept (`#keptBefore`), MAX_KEPT_BLOBS in all.
   */
  readonly #kept = new Set<string>();
  readonly #keptBefore: string[];
  /** Why the store takes no more blobs this run: the file system refused one. */
  #unwritable?: Error;
  /** Why the index on disk was ignored, if it was. */
  readonly ignored?: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    // A link would make the store write, and remove, wherever it points.
    if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a folder (a symbolic link, or a file)`);
    const loaded = loadIndex(join(dir, INDEX));
    this.#index = loaded.index;
    if (loaded.ignored !== undefined) this.ignored = loaded.ignored;
    this.#dropped = new Uint8Array(this.#index.size);
    this.#segment = new SegmentWriter(dir);
    this.#keptBefore = loadKept(join(dir, KEPT));
  }

  /** Whether the index names `digest` (hex, or its bytes), and no `get` this run found it gone. */
  has(digest: string | Uint8Array): boolean {
    const row = this.#index.rowOf(typeof digest === "string" ? Buffer.from(digest, "hex") : digest);
    return row >= 0 && this.#dropped[row] === 0;
  }

  /** The write the file system refused, if one was: the store took no blob after it. */
  get unwritable(): Error | undefined {
    return this.#unwritable;
  }

  /**
   * Files `bytes` under their SHA-256, which it returns (hex), unless the store holds it. A
   * refused write costs the cache, never the build: it removes this run's segment (on a
   * full disk, that space is the output's) and keeps nothing more. `known`: that SHA-256,
   * where the caller hashed these very bytes in memory (a build's bodies); a `get` checks
   * every blob all the same.
   */
  put(bytes: Uint8Array, known?: Uint8Array): string {
    // Its segment is closed: a run saves its store once, at its end.
    if (this.#saved) throw new Error(`the blob store in ${this.dir} was saved: it takes no more blobs`);
    const digest = known === undefined ? createHash("sha256").update(bytes).digest() : Buffer.from(known);
    const hex = digest.toString("hex");
    if (this.#unwritable !== undefined || this.has(hex)) return hex;
    const at = this.#added.add();
    writeRow(this.#added.bytes, at, digest, this.#segment.id, bytes.byteLength, this.#segment.append(bytes));
    if (this.#segment.pending >= WRITE_BYTES) this.flush();
    return hex;
  }

  /**
   * Files `bytes` as `put` does, and keeps them whatever a save is asked to keep, until MAX_KEPT_BLOBS kept since push
   * them out: what a build keeps of an output's state, which no verification cache's entry names. A state is never
   * dropped for being replaced: another output sharing the cache (production's beside a preview's, of the same content
   * or not) may name it still.
   */
  keep(bytes: Uint8Array): string {
    const digest = this.put(bytes);
    this.#kept.delete(digest);
    this.#kept.add(digest);
    return digest;
  }

  /** What the save keeps whatever it wants: this run's kept blobs, then those kept before, most recent first. */
  #keptAtSave(): string[] {
    const before = this.#keptBefore.filter((digest) => !this.#kept.has(digest));
    return [...[...this.#kept].reverse(), ...before].slice(0, MAX_KEPT_BLOBS);
  }

  /** Writes what `put` gathered: once every blob is put, so that a refusal is known before the cache is saved. */
  flush(): void {
    if (this.#unwritable !== undefined) return;
    try {
      this.#segment.flush();
    } catch (error) {
      this.#unwritable = error as Error;
      this.#added = new TableRows(ROW_BYTES);
      this.#segment.remove();
    }
  }

  /** The blob of `digest` (hex), if the store still has it and it is still that blob. */
  get(digest: string): StoredBlob {
    const row = this.#index.rowOf(Buffer.from(digest, "hex"));
    if (row < 0 || this.#dropped[row] === 1) return "missing";
    const blob = this.#read(this.#index.rows, row);
    // Not there: put again by this run, from the output its file is checked into.
    if (typeof blob === "string") this.#dropped[row] = 1;
    return blob;
  }

  /** The blob of `rows`' row `row`, checked against its digest. */
  #read(rows: Uint8Array, row: number): StoredBlob {
    const at = row * ROW_BYTES;
    const view = Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength);
    const segment = this.#reader(view.readUInt32LE(at + SEGMENT_AT));
    if (typeof segment === "string") return segment;
    const length = view.readUInt32LE(at + LENGTH_AT);
    const offset = view.readDoubleLE(at + OFFSET_AT);
    // Bytes the segment does not hold: none is allocated for them (an index can claim 4 GiB).
    if (!(offset >= 0 && offset + length <= segment.size)) return "altered";
    let blob: Buffer;
    try {
      blob = readFully(segment.fd, length, offset);
    } catch {
      return "missing";
    }
    const digest = createHash("sha256").update(blob).digest();
    return blob.byteLength === length && digest.equals(view.subarray(at, at + KEY_BYTES)) ? blob : "altered";
  }

  /**
   * The segment open for reading. Removed by another run, or unreadable: either way its blobs are made again.
   * Any other thing in its place holds no blob: said once (`altered`), and its other blobs are then `missing`.
   */
  #reader(segment: number): SegmentReader | "missing" | "altered" {
    const known = this.#readers.get(segment);
    if (known !== undefined) return known;
    try {
      const fd = openRegularFile(join(this.dir, segmentName(segment)));
      const reader = { fd, size: fstatSync(fd).size };
      this.#readers.set(segment, reader);
      return reader;
    } catch (error) {
      this.#readers.set(segment, "missing");
      return error instanceof NotACacheFile && error.message !== "no such file" ? "altered" : "missing";
    }
  }

  /**
   * Writes the index of the blobs `wanted` names (all, when undefined) that the store holds
   * or was given, and removes what it no longer names. A segment less than half of whose
   * bytes are still named, or all but the fullest when there are more than MAX_SEGMENTS,
   * has its blobs copied into a new segment first. Then sweeps the folder: what killed runs
   * left is removed once stale. Writes nothing when nothing changed.
   */
  save(wanted?: WantedBlobs): void {
    this.flush();
    if (this.#unwritable !== undefined) throw this.#unwritable;
    const kept = this.#keptAtSave();
    if (kept.join("\n") !== this.#keptBefore.join("\n"))
      writeAtomically(join(this.dir, KEPT), kept.map((digest) => `${digest}\n`).join(""));
    if (wanted === undefined && this.#added.count === 0 && !this.#dropped.includes(1)) {
      this.#closeReaders();
      return;
    }
    // This run's id is another's too when this run never made its segment: that one is not this run's to remove.
    const known = new Set([...segmentsOf(this.#index.rows), ...(this.#segment.made ? [this.#segment.id] : [])]);
    const sizes = segmentSizes(this.dir, known);
    const copy = new SegmentWriter(this.dir);
    let rows = this.#merged(wanted, new Set(kept), sizes);
    try {
      const rewritten = segmentsToRewrite(rows, sizes);
      if (rewritten.size > 0) rows = this.#rewrite(rows, rewritten, copy);
      const parts = tableParts(INDEX_FORMAT, new SortedTable(rows, ROW_BYTES));
      writeAtomically(join(this.dir, INDEX), (fd) => writeParts(fd, parts));
    } catch (error) {
      // No index names them: on a full disk, their room is better given back now.
      copy.remove();
      this.#segment.remove();
      throw error;
    }
    this.#closeReaders();
    this.#segment.close();
    copy.close();
    this.#saved = true;
    const named = segmentsOf(rows);
    for (const segment of known) if (!named.has(segment)) rmSync(join(this.dir, segmentName(segment)), { force: true });
    sweep(this.dir, {
      unnamed: (name) => {
        const segment = SEGMENT_NAME.exec(name);
        return segment !== null && !named.has(Number.parseInt(segment[1]!, 16));
      },
    });
  }

  #closeReaders(): void {
    for (const reader of this.#readers.values()) if (typeof reader !== "string") closeSync(reader.fd);
    this.#readers.clear();
  }

  /**
   * The rows of the index to write, sorted: those held and added that `wanted` names, in a
   * segment still there (`sizes`), each digest once.
   */
  #merged(wanted: WantedBlobs | undefined, kept: ReadonlySet<string>, sizes: ReadonlyMap<number, number>): Uint8Array {
    const added = this.#added.table().rows;
    const held = this.#index.rows;
    const merged = new UniqueRows();
    const views = new Map([held, added].map((rows) => [rows, viewOf(rows)]));
    const keeps = (rows: Uint8Array, row: number) =>
      sizes.has(views.get(rows)!.getUint32(row * ROW_BYTES + SEGMENT_AT, true)) &&
      (wanted === undefined || wanted.positionOf(keyOf(rows, row)) >= 0 || kept.has(hexOf(keyOf(rows, row))));
    let i = 0;
    let j = 0;
    const count = this.#dropped.length;
    const addedCount = added.byteLength / ROW_BYTES;
    while (i < count || j < addedCount) {
      const fromHeld = j === addedCount || (i < count && compareRows(held, i, added, j) <= 0);
      const [rows, row] = fromHeld ? [held, i++] : [added, j++];
      if ((!fromHeld || this.#dropped[row] === 0) && keeps(rows, row)) merged.push(rows, row);
    }
    return merged.rows();
  }

  /** `rows` with the blobs of the `rewritten` segments copied into `copy`; a blob not found there is dropped. */
  #rewrite(rows: Uint8Array, rewritten: ReadonlySet<number>, copy: SegmentWriter): Uint8Array {
    const view = Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength);
    const kept = new UniqueRows();
    for (let row = 0; row < rows.byteLength / ROW_BYTES; row++) {
      const at = row * ROW_BYTES;
      if (!rewritten.has(view.readUInt32LE(at + SEGMENT_AT))) kept.push(rows, row);
      else {
        const blob = this.#read(rows, row);
        if (typeof blob !== "string") {
          const copied = new Uint8Array(ROW_BYTES);
          writeRow(copied, 0, view.subarray(at, at + KEY_BYTES), copy.id, blob.byteLength, copy.append(blob));
          kept.push(copied, 0);
        }
      }
      if (copy.pending >= WRITE_BYTES) copy.flush();
    }
    copy.flush();
    return kept.rows();
  }
}

/** A segment open for reading, and its size then: its blobs were written before any index named them. */
interface SegmentReader {
  fd: number;
  size: number;
}

/** A new segment, appended to: opened at its first write, never over another's. */
class SegmentWriter {
  readonly id = randomBytes(4).readUInt32LE(0);
  #fd?: number;
  #closed = false;
  /** Bytes appended, written or not. */
  #bytes = 0;
  #chunks: Uint8Array[] = [];
  #pending = 0;

  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, segmentName(this.id));
  }

  /** Whether this writer made its file: until then, a file of its name is another run's. */
  get made(): boolean {
    return this.#fd !== undefined;
  }

  /** Bytes appended and not yet written. */
  get pending(): number {
    return this.#pending;
  }

  /** Appends `blob`, written at the next flush; returns its offset. */
  append(blob: Uint8Array): number {
    this.#chunks.push(blob);
    this.#pending += blob.byteLength;
    this.#bytes += blob.byteLength;
    return this.#bytes - blob.byteLength;
  }

  flush(): void {
    if (this.#pending === 0) return;
    // wx: a file of that name (another run's segment, or a link) is never written over or through.
    this.#fd ??= openSync(this.path, "wx", BLOB_MODE);
    writeParts(this.#fd, this.#chunks);
    this.#chunks = [];
    this.#pending = 0;
  }

  /**
   * Closes the segment, once the index that names it is written: a later read opens it anew, and a descriptor left
   * open would hold the file system (a remount, a removal on Windows) for as long as the process lives.
   */
  close(): void {
    if (this.#fd === undefined || this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  /** Removes the segment, if this writer made it, as far as the file system lets it. */
  remove(): void {
    this.#chunks = [];
    this.#pending = 0;
    // Not made: what is at its path (wx refused it) is another run's, or a link, and stays.
    if (this.#fd === undefined) return;
    try {
      this.close();
      rmSync(this.path, { force: true });
    } catch {
      // Nothing more to do: no index names it, and a later run's sweep removes it.
    }
  }
}

/** Rows gathered in key order, each key once (the first given). */
class UniqueRows {
  readonly #rows = new TableRows(ROW_BYTES);

  push(rows: Uint8Array, row: number): void {
    const count = this.#rows.count;
    if (count > 0 && compareRows(this.#rows.bytes, count - 1, rows, row) === 0) return;
    const at = this.#rows.add();
    this.#rows.bytes.set(rows.subarray(row * ROW_BYTES, (row + 1) * ROW_BYTES), at);
  }

  rows(): Uint8Array {
    return this.#rows.bytes.slice(0, this.#rows.count * ROW_BYTES);
  }
}

function writeRow(
  rows: Uint8Array,
  at: number,
  digest: Uint8Array,
  segment: number,
  length: number,
  offset: number,
): void {
  const view = viewOf(rows);
  rows.set(digest, at);
  view.setUint32(at + SEGMENT_AT, segment, true);
  view.setUint32(at + LENGTH_AT, length, true);
  view.setFloat64(at + OFFSET_AT, offset, true);
}

/** Whether `value` is a SHA-256 as the store names blobs: 64 lowercase hex digits. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
}

/** The kept blobs' digests a file lists; none when it is not such a list (it then costs outputs a whole build). */
function loadKept(file: string): string[] {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_KEPT_BLOBS * 65) return [];
    const lines = readFully(fd, size, 0).toString("latin1").split("\n").slice(0, -1);
    return lines.every(isSha256Hex) ? lines.slice(0, MAX_KEPT_BLOBS) : [];
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/** The index's rows; none, with why, when the file is not to be trusted. */
function loadIndex(file: string): { index: SortedTable; ignored?: string } {
  const none = new SortedTable(new Uint8Array(0), ROW_BYTES);
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch (error) {
    // None yet is the usual case, and says nothing; anything else in its place is worth a word.
    if (error instanceof NotACacheFile && error.message !== "no such file")
      return { index: none, ignored: `its index of blobs is ${error.message}` };
    return { index: none };
  }
  try {
    const read = readTable(fd, 0, INDEX_FORMAT, ROW_BYTES, MAX_INDEX_BYTES);
    if ("why" in read) return { index: none, ignored: `its index of blobs ${read.why}` };
    if (read.end !== lstatSync(file).size)
      return { index: none, ignored: "its index of blobs does not match its digest (truncated or altered)" };
    return { index: read.table };
  } catch {
    return { index: none, ignored: "its index of blobs cannot be read (truncated or altered)" };
  } finally {
    closeSync(fd);
  }
}

/** The digest of `rows`' row `row`. */
function keyOf(rows: Uint8Array, row: number): Uint8Array {
  return rows.subarray(row * ROW_BYTES, row * ROW_BYTES + KEY_BYTES);
}

function hexOf(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex");
}

function viewOf(rows: Uint8Array): DataView {
  return new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
}

function compareRows(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  return compareKeyAt(a, i * ROW_BYTES, b.subarray(j * ROW_BYTES, j * ROW_BYTES + KEY_BYTES));
}

function segmentsOf(rows: Uint8Array): Set<number> {
  const view = viewOf(rows);
  const segments = new Set<number>();
  for (let at = SEGMENT_AT; at < rows.byteLength; at += ROW_BYTES) segments.add(view.getUint32(at, true));
  return segments;
}

function segmentName(segment: number): string {
  return `seg-${segment.toString(16).padStart(8, "0")}`;
}

/** The size of each of `segments` that is a regular file: the others hold no blob. */
function segmentSizes(dir: string, segments: Iterable<number>): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const segment of segments) {
    const stat = lstatSync(join(dir, segmentName(segment)), { throwIfNoEntry: false });
    if (stat?.isFile()) sizes.set(segment, stat.size);
  }
  return sizes;
}

/** The segments whose blobs `rows` names are to be copied into a new one. */
function segmentsToRewrite(rows: Uint8Array, sizes: ReadonlyMap<number, number>): Set<number> {
  const view = viewOf(rows);
  const live = new Map<number, number>();
  for (let at = 0; at < rows.byteLength; at += ROW_BYTES) {
    const segment = view.getUint32(at + SEGMENT_AT, true);
    live.set(segment, (live.get(segment) ?? 0) + view.getUint32(at + LENGTH_AT, true));
  }
  const rewritten = new Set([...live].filter(([segment, bytes]) => bytes * 2 < sizes.get(segment)!).map(([s]) => s));
  if (live.size - rewritten.size + (rewritten.size > 0 ? 1 : 0) <= MAX_SEGMENTS) return rewritten;
  const fullest = [...live].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return new Set([...live.keys()].filter((segment) => segment !== fullest));
}
