/**
 * The bodies the build published, in the cache folder, found by their SHA-256 (the digest
 * their ETag carries, which the cache's entries keep apart from the bodies). A build
 * publishes an unchanged manifest's body from here instead of making it again from its
 * file: Netlify clones the repository afresh for every build, but keeps node_modules/.cache.
 *
 * Bodies are appended to segments (`seg-` and 8 hex digits, a random id per run that writes
 * one), so that keeping a cold build's bodies is a few sequential writes, not a file each.
 * One `index` names them: a header line with its format and the SHA-256 of the rest, then
 * a table sorted by digest, searched in place, of where each body is. The index is written
 * whole under a temporary name and renamed, once per run, when the cache is saved; a run
 * that two others overlap keeps what the last rename names, and a body the other index
 * named is then missing, and checked again, as entries of verification.json are. An index
 * that does not match its digest is ignored, with a warning, and the bodies made again.
 *
 * The store is a folder any process of the user's can write, and a shared CI cache is
 * restored from elsewhere: a body is recalled only when its bytes still have the digest it
 * is filed under, and is copied into the output, never linked, so that nothing done to a
 * served file can reach the store or a later build. A segment is read only as a regular
 * file; a kill or a full disk leaves a segment no index names, removed an hour later.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { readFully } from "../read/read-fully.ts";
import { NotACacheFile, openRegularFile, readRegularFile } from "./regular-file.ts";
import { orderByKey, type KnownKeys } from "./known-keys.ts";

const INDEX = "index";
const FORMAT = 1;
/** The index's first line, spaces included. */
const HEADER_BYTES = 128;
/** A row of the index: the digest, the segment's id and the body's length (uint32 each), its offset (float64). */
const ROW_BYTES = 48;
const DIGEST_BYTES = 32;
/** Far more than the index of ten million bodies: a larger file is not one this tool wrote. */
const MAX_INDEX_BYTES = 1024 ** 3;
/** Read-only: an edit by mistake is refused, though a recall checks every body all the same. */
const BODY_MODE = 0o444;
/** Bytes gathered into one write. */
const WRITE_BYTES = 4 * 1024 * 1024;
/** Beyond these, all segments but the fullest are copied into one: each run with changes writes one. */
const MAX_SEGMENTS = 16;
/** A run still going writes its segment within this; a segment no index names, older, is a killed run's. */
const STALE_MS = 3600_000;
const SEGMENT_NAME = /^seg-([0-9a-f]{8})$/;
/** What an older version kept, a file per body and its temporary: removed, as no index names it. */
const FILE_PER_BODY = /^[0-9a-f]{64}(\.\d+\.tmp)?$/;
const INDEX_TEMPORARY = /^index\.\d+\.tmp$/;

/**
 * What `recall` found: the body, none (`missing`), or bytes that are not the body of their digest (`altered`, now
 * dropped from the index).
 */
export type RecalledBody = Uint8Array | "missing" | "altered";

export class BodyStore {
  /** The index's rows at the start of the run, sorted by digest. */
  readonly #rows: Buffer;
  /** Rows whose body a recall did not find (1): not held, and dropped at the next write of the index. */
  readonly #dropped: Uint8Array;
  /** This run's segment, made at its first write. */
  readonly #segment: SegmentWriter;
  /** The rows of the bodies this run kept, in its segment, in the order kept. */
  #added = new RowList();
  /** Each segment read, open once: its descriptor, or `missing` when it holds no body this run. */
  readonly #readers = new Map<number, number | "missing">();
  /** Why the store takes no more bodies this run: the file system refused one. */
  #unwritable?: Error;
  /** Why the index on disk was ignored, if it was. */
  readonly ignored?: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    // A link would make the store write, and remove, wherever it points.
    if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a folder (a symbolic link, or a file)`);
    const loaded = loadIndex(join(dir, INDEX));
    this.#rows = loaded.rows;
    if (loaded.ignored !== undefined) this.ignored = loaded.ignored;
    this.#dropped = new Uint8Array(this.#rows.byteLength / ROW_BYTES);
    this.#segment = new SegmentWriter(dir);
  }

  holds(digest: string): boolean {
    const row = rowOf(this.#rows, Buffer.from(digest, "hex"));
    return row >= 0 && this.#dropped[row] === 0;
  }

  /** The write the file system refused, if one was: the store took no body after it. */
  get unwritable(): Error | undefined {
    return this.#unwritable;
  }

  /**
   * Keeps the body at `path` (an output's file, which the build wrote) for later builds if
   * it is the body of `digest` and the store does not hold it. A refused write costs the
   * cache, never the build: it removes this run's segment (on a full disk, that space is
   * the output's) and keeps nothing more.
   */
  keep(path: string, digest: string): void {
    if (this.#unwritable !== undefined || this.holds(digest)) return;
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch {
      // The output's file is gone or unreadable: that body is not kept, and nothing else changes.
      return;
    }
    if (sha256Hex(body) !== digest) return;
    this.#added.push(Buffer.from(digest, "hex"), this.#segment.id, body.byteLength, this.#segment.append(body));
    if (this.#segment.pending >= WRITE_BYTES) this.flush();
  }

  /** Writes what `keep` gathered: once every body is kept, so that a refusal is known before the cache is saved. */
  flush(): void {
    if (this.#unwritable !== undefined) return;
    try {
      this.#segment.flush();
    } catch (error) {
      this.#unwritable = error as Error;
      this.#added = new RowList();
      this.#segment.remove();
    }
  }

  /** The body `digest` of `bytes` bytes, if the store still has it and it is still that body. */
  recall(digest: string, bytes: number): RecalledBody {
    const row = rowOf(this.#rows, Buffer.from(digest, "hex"));
    if (row < 0 || this.#dropped[row] === 1) return "missing";
    const recalled = this.#read(this.#rows, row, bytes);
    // Not there: kept again by this run, from the output its file is checked into.
    if (typeof recalled === "string") this.#dropped[row] = 1;
    return recalled;
  }

  /** The body of `rows`' row `row`, checked against its digest and `bytes`. */
  #read(rows: Buffer, row: number, bytes: number): RecalledBody {
    const at = row * ROW_BYTES;
    const segment = this.#reader(rows.readUInt32LE(at + DIGEST_BYTES));
    if (typeof segment === "string") return segment;
    if (rows.readUInt32LE(at + DIGEST_BYTES + 4) !== bytes) return "altered";
    let body: Buffer;
    try {
      body = readFully(segment, bytes, rows.readDoubleLE(at + DIGEST_BYTES + 8));
    } catch {
      return "missing";
    }
    const digest = createHash("sha256").update(body).digest();
    return body.byteLength === bytes && digest.equals(rows.subarray(at, at + DIGEST_BYTES)) ? body : "altered";
  }

  /**
   * The segment open for reading. Removed by another run, or unreadable: either way its bodies are checked again.
   * Any other thing in its place holds no body: said once (`altered`), and its other bodies are then `missing`.
   */
  #reader(segment: number): number | "missing" | "altered" {
    const reader = this.#readers.get(segment);
    if (reader !== undefined) return reader;
    try {
      const fd = openRegularFile(join(this.dir, segmentName(segment)));
      this.#readers.set(segment, fd);
      return fd;
    } catch (error) {
      this.#readers.set(segment, "missing");
      return error instanceof NotACacheFile && error.message !== "no such file" ? "altered" : "missing";
    }
  }

  /**
   * Writes the index of the bodies whose digests `wanted` holds as keys (all, when undefined) that the store holds
   * or kept, and removes what it no longer names. A segment less than half of whose bytes are
   * still named, or all but the fullest when there are more than MAX_SEGMENTS, has its bodies
   * copied into a new segment first. Also removes what killed runs left an hour or more ago (a
   * run still going writes its own within seconds). Writes nothing when nothing changed.
   */
  save(wanted?: KnownKeys): void {
    this.flush();
    if (this.#unwritable !== undefined) throw this.#unwritable;
    if (wanted === undefined && this.#added.rows().byteLength === 0 && !this.#dropped.includes(1)) {
      this.#closeReaders();
      return;
    }
    const known = new Set([...segmentsOf(this.#rows), this.#segment.id]);
    const sizes = segmentSizes(this.dir, known);
    const copy = new SegmentWriter(this.dir);
    let rows = this.#merged(wanted, sizes);
    try {
      const rewritten = segmentsToRewrite(rows, sizes);
      if (rewritten.size > 0) rows = this.#rewrite(rows, rewritten, copy);
      writeIndex(join(this.dir, INDEX), rows);
    } catch (error) {
      // No index names them: on a full disk, their room is better given back now.
      copy.remove();
      this.#segment.remove();
      throw error;
    }
    this.#closeReaders();
    const named = segmentsOf(rows);
    for (const segment of known) if (!named.has(segment)) rmSync(join(this.dir, segmentName(segment)), { force: true });
    removeLeftovers(this.dir, named);
  }

  #closeReaders(): void {
    for (const fd of this.#readers.values()) if (typeof fd === "number") closeSync(fd);
    this.#readers.clear();
  }

  /**
   * The rows of the index to write, sorted: those held and added that `wanted` names, in a
   * segment still there (`sizes`), each digest once.
   */
  #merged(wanted: KnownKeys | undefined, sizes: ReadonlyMap<number, number>): Buffer {
    const added = this.#added.sorted();
    const merged = new RowList();
    const keeps = (rows: Buffer, row: number) =>
      sizes.has(rows.readUInt32LE(row * ROW_BYTES + DIGEST_BYTES)) &&
      (wanted === undefined || wanted.positionOf(rows.subarray(row * ROW_BYTES, row * ROW_BYTES + DIGEST_BYTES)) >= 0);
    let i = 0;
    let j = 0;
    const count = this.#dropped.length;
    while (i < count || j < added.byteLength / ROW_BYTES) {
      const fromHeld = j * ROW_BYTES === added.byteLength || (i < count && compareRows(this.#rows, i, added, j) <= 0);
      const [rows, row] = fromHeld ? [this.#rows, i++] : [added, j++];
      if ((!fromHeld || this.#dropped[row] === 0) && keeps(rows, row)) merged.pushUnique(rows, row);
    }
    return merged.rows();
  }

  /** `rows` with the bodies of the `rewritten` segments copied into `copy`; a body not found there is dropped. */
  #rewrite(rows: Buffer, rewritten: ReadonlySet<number>, copy: SegmentWriter): Buffer {
    const kept = new RowList();
    for (let row = 0; row < rows.byteLength / ROW_BYTES; row++) {
      const at = row * ROW_BYTES;
      const length = rows.readUInt32LE(at + DIGEST_BYTES + 4);
      if (!rewritten.has(rows.readUInt32LE(at + DIGEST_BYTES))) kept.pushUnique(rows, row);
      else {
        const body = this.#read(rows, row, length);
        if (typeof body !== "string")
          kept.push(rows.subarray(at, at + DIGEST_BYTES), copy.id, length, copy.append(body));
      }
      if (copy.pending >= WRITE_BYTES) copy.flush();
    }
    copy.flush();
    return kept.rows();
  }
}

/** A new segment, appended to: opened at its first write, never over another's. */
class SegmentWriter {
  readonly id = randomBytes(4).readUInt32LE(0);
  #fd?: number;
  /** Bytes appended, written or not. */
  #bytes = 0;
  #chunks: Uint8Array[] = [];
  #pending = 0;

  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, segmentName(this.id));
  }

  /** Bytes appended and not yet written. */
  get pending(): number {
    return this.#pending;
  }

  /** Appends `body`, written at the next flush; returns its offset. */
  append(body: Uint8Array): number {
    this.#chunks.push(body);
    this.#pending += body.byteLength;
    this.#bytes += body.byteLength;
    return this.#bytes - body.byteLength;
  }

  flush(): void {
    if (this.#pending === 0) return;
    // wx: a file of that name (another run's segment, or a link) is never written over or through.
    this.#fd ??= openSync(this.path, "wx", BODY_MODE);
    writeFileSync(this.#fd, Buffer.concat(this.#chunks, this.#pending));
    this.#chunks = [];
    this.#pending = 0;
  }

  /** Removes the segment, as far as the file system lets it (a read-only one never had it). */
  remove(): void {
    this.#chunks = [];
    this.#pending = 0;
    try {
      if (this.#fd !== undefined) closeSync(this.#fd);
      rmSync(this.path, { force: true });
    } catch {
      // Nothing more to do: no index names it, and a later run removes it.
    }
  }
}

/** Rows of the index being gathered. */
class RowList {
  #rows = Buffer.alloc(64 * ROW_BYTES);
  #count = 0;

  push(digest: Uint8Array, segment: number, length: number, offset: number): void {
    const at = this.#room();
    this.#rows.set(digest, at);
    this.#rows.writeUInt32LE(segment, at + DIGEST_BYTES);
    this.#rows.writeUInt32LE(length, at + DIGEST_BYTES + 4);
    this.#rows.writeDoubleLE(offset, at + DIGEST_BYTES + 8);
  }

  /** Appends `rows`' row `row` unless the last row has its digest (the rows come sorted). */
  pushUnique(rows: Buffer, row: number): void {
    if (this.#count > 0 && compareRows(this.#rows, this.#count - 1, rows, row) === 0) return;
    const at = this.#room();
    rows.copy(this.#rows, at, row * ROW_BYTES, (row + 1) * ROW_BYTES);
  }

  #room(): number {
    if ((this.#count + 1) * ROW_BYTES > this.#rows.byteLength) {
      const grown = Buffer.alloc(this.#rows.byteLength * 2);
      this.#rows.copy(grown);
      this.#rows = grown;
    }
    return this.#count++ * ROW_BYTES;
  }

  rows(): Buffer {
    return this.#rows.subarray(0, this.#count * ROW_BYTES);
  }

  /** The rows, sorted by digest. */
  sorted(): Buffer {
    const rows = this.rows();
    const order = orderByKey(rows, ROW_BYTES, this.#count);
    const sorted = Buffer.alloc(rows.byteLength);
    order.forEach((row, i) => {
      rows.copy(sorted, i * ROW_BYTES, row * ROW_BYTES, (row + 1) * ROW_BYTES);
    });
    return sorted;
  }
}

/** The index's rows; none, with why, when the file is not to be trusted. */
function loadIndex(file: string): { rows: Buffer; ignored?: string } {
  const ignored = (why: string) => ({ rows: Buffer.alloc(0), ignored: `its index of bodies ${why}` });
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_INDEX_BYTES);
  } catch (error) {
    // None yet is the usual case, and says nothing; anything else in its place is worth a word.
    if (error instanceof NotACacheFile && error.message !== "no such file") return ignored(`is ${error.message}`);
    return { rows: Buffer.alloc(0) };
  }
  const rows = bytes.subarray(HEADER_BYTES);
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString("utf8", 0, HEADER_BYTES));
  } catch {
    return ignored("cannot be read (truncated or altered)");
  }
  const { format, count, sha256 } = (header ?? {}) as Record<string, unknown>;
  if (format !== FORMAT) return ignored(`is not of format ${FORMAT}`);
  if (sha256 !== createHash("sha256").update(rows).digest("base64url") || count !== rows.byteLength / ROW_BYTES)
    return ignored("does not match its digest (truncated or altered)");
  for (let row = 1; row < rows.byteLength / ROW_BYTES; row++)
    if (compareRows(rows, row - 1, rows, row) >= 0) return ignored("is not sorted");
  return { rows };
}

function writeIndex(file: string, rows: Buffer): void {
  const header = JSON.stringify({
    format: FORMAT,
    count: rows.byteLength / ROW_BYTES,
    sha256: createHash("sha256").update(rows).digest("base64url"),
  });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${header.padEnd(HEADER_BYTES - 1)}\n`), rows]));
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The row of `rows` whose digest is `digest`, by binary search; -1 for none. */
function rowOf(rows: Buffer, digest: Buffer): number {
  let low = 0;
  let high = rows.byteLength / ROW_BYTES - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = digest.compare(rows, middle * ROW_BYTES, middle * ROW_BYTES + DIGEST_BYTES);
    if (order === 0) return middle;
    if (order < 0) high = middle - 1;
    else low = middle + 1;
  }
  return -1;
}

function compareRows(a: Buffer, i: number, b: Buffer, j: number): number {
  return a.compare(b, j * ROW_BYTES, j * ROW_BYTES + DIGEST_BYTES, i * ROW_BYTES, i * ROW_BYTES + DIGEST_BYTES);
}

function segmentsOf(rows: Buffer): Set<number> {
  const segments = new Set<number>();
  for (let at = DIGEST_BYTES; at < rows.byteLength; at += ROW_BYTES) segments.add(rows.readUInt32LE(at));
  return segments;
}

function segmentName(segment: number): string {
  return `seg-${segment.toString(16).padStart(8, "0")}`;
}

/** The size of each of `segments` that is a regular file: the others hold no body. */
function segmentSizes(dir: string, segments: Iterable<number>): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const segment of segments) {
    const stat = lstatSync(join(dir, segmentName(segment)), { throwIfNoEntry: false });
    if (stat?.isFile()) sizes.set(segment, stat.size);
  }
  return sizes;
}

/** The segments whose bodies `rows` names are to be copied into a new one. */
function segmentsToRewrite(rows: Buffer, sizes: ReadonlyMap<number, number>): Set<number> {
  const live = new Map<number, number>();
  for (let at = 0; at < rows.byteLength; at += ROW_BYTES) {
    const segment = rows.readUInt32LE(at + DIGEST_BYTES);
    live.set(segment, (live.get(segment) ?? 0) + rows.readUInt32LE(at + DIGEST_BYTES + 4));
  }
  const rewritten = new Set([...live].filter(([segment, bytes]) => bytes * 2 < sizes.get(segment)!).map(([s]) => s));
  if (live.size - rewritten.size + (rewritten.size > 0 ? 1 : 0) <= MAX_SEGMENTS) return rewritten;
  const fullest = [...live].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return new Set([...live.keys()].filter((segment) => segment !== fullest));
}

/**
 * Removes what no index names: segments and temporaries of runs killed an hour or more ago, and the files an older
 * version kept a body in each.
 */
function removeLeftovers(dir: string, named: ReadonlySet<number>): void {
  const stale = Date.now() - STALE_MS;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const segment = SEGMENT_NAME.exec(name);
    const leftover = segment === null ? INDEX_TEMPORARY.test(name) : !named.has(Number.parseInt(segment[1]!, 16));
    if (FILE_PER_BODY.test(name)) rmSync(path, { force: true });
    else if (leftover && (lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < stale)
      rmSync(path, { force: true });
  }
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
