/**
 * The one format of a sorted table the cache folder keeps (the blob index, the verification
 * cache's keys): fixed-width rows, each beginning with a 32-byte key (a SHA-256), sorted by
 * key, each key once, found by binary search where they lie. On disk a table is a header
 * line of TABLE_HEADER_BYTES (its format, row width, row count and the SHA-256 of the rows,
 * as JSON padded with spaces), then the rows as they are in memory: loaded without parsing,
 * and trusted only when they match their digest and are sorted.
 */
import { createHash } from "node:crypto";
import { fstatSync } from "node:fs";
import { readInto } from "../read/read-fully.ts";
import { withRoom } from "./growing.ts";

export const KEY_BYTES = 32;
const TABLE_HEADER_BYTES = 256;

export class SortedTable {
  constructor(
    readonly rows: Uint8Array,
    readonly rowBytes: number,
  ) {}

  get size(): number {
    return this.rows.byteLength / this.rowBytes;
  }

  /** The row whose key is `key`, or -1. */
  rowOf(key: Uint8Array): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareKeyAt(this.rows, middle * this.rowBytes, key);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  keyAt(row: number): Uint8Array {
    return this.rows.subarray(row * this.rowBytes, row * this.rowBytes + KEY_BYTES);
  }

  /** Whether each row's key is before the next one's: sorted, each key once. */
  isSorted(): boolean {
    for (let row = 1; row < this.size; row++)
      if (compareKeyAt(this.rows, (row - 1) * this.rowBytes, this.keyAt(row)) >= 0) return false;
    return true;
  }
}

/**
 * Rows to make a table of, in any order: a million of them are one growing buffer, not a
 * million objects. `add` gives where the next row goes in `bytes`, which the caller fills.
 */
export class TableRows {
  #bytes: Uint8Array;
  #count = 0;

  constructor(readonly rowBytes: number) {
    this.#bytes = new Uint8Array(rowBytes * 64);
  }

  get count(): number {
    return this.#count;
  }

  /** The rows so far; valid until the next `add`. */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** Makes room for one row more; its offset in `bytes`. */
  add(): number {
    this.#bytes = withRoom(this.#bytes, (this.#count + 1) * this.rowBytes);
    return this.#count++ * this.rowBytes;
  }

  /** The rows as a table: sorted by key, and of the rows of one key only the last added. */
  table(): SortedTable {
    const { rowBytes } = this;
    const rows = this.#bytes;
    const order = orderByKey(rows, rowBytes, this.#count);
    const table = new Uint8Array(this.#count * rowBytes);
    let kept = 0;
    order.forEach((row, i) => {
      const next = order[i + 1];
      const at = row * rowBytes;
      if (
        next !== undefined &&
        compareKeyAt(rows, at, rows.subarray(next * rowBytes, next * rowBytes + KEY_BYTES)) === 0
      )
        return;
      table.set(rows.subarray(at, at + rowBytes), kept++ * rowBytes);
    });
    return new SortedTable(table.subarray(0, kept * rowBytes), rowBytes);
  }
}

/**
 * The order of `count` rows of `rowBytes` bytes at the start of `rows`: by key, and rows of one key in the order
 * given. Keys are hashes: their first four bytes, as a number, order all but a few pairs without comparing bytes (a
 * million rows in well under a second, not three).
 */
function orderByKey(rows: Uint8Array, rowBytes: number, count: number): Int32Array {
  const words = new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
  const prefixes = Uint32Array.from({ length: count }, (_, i) => words.getUint32(i * rowBytes));
  return Int32Array.from({ length: count }, (_, i) => i).sort(
    (a, b) =>
      prefixes[a]! - prefixes[b]! ||
      compareKeyAt(rows, a * rowBytes, rows.subarray(b * rowBytes, b * rowBytes + KEY_BYTES)) ||
      a - b,
  );
}

/** The key at `at` of `rows` against `key`, in place: a search makes no objects. */
export function compareKeyAt(rows: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; i < KEY_BYTES; i++) if (rows[at + i] !== key[i]) return rows[at + i]! - key[i]!;
  return 0;
}

/** The table as written: its header line, then its rows. */
export function tableParts(format: string, table: SortedTable): Uint8Array[] {
  const header = JSON.stringify({
    format,
    rowBytes: table.rowBytes,
    count: table.size,
    sha256: createHash("sha256").update(table.rows).digest("base64url"),
  });
  // A format name is the code's own: one too long for the header line is this code's mistake.
  if (header.length >= TABLE_HEADER_BYTES) throw new Error(`a table header of ${header.length} bytes`);
  return [Buffer.from(`${header.padEnd(TABLE_HEADER_BYTES - 1)}\n`), table.rows];
}

/** A table read, and the offset in its file where it ends; or why it is not to be trusted. */
export type ReadTable = { table: SortedTable; end: number } | { why: string };

/**
 * The table of `format` at `at` in the file open as `fd`, at most `maxBytes` long; its rows in shared memory when
 * `shared` (for worker threads to read).
 */
export function readTable(
  fd: number,
  at: number,
  format: string,
  rowBytes: number,
  maxBytes: number,
  shared = false,
): ReadTable {
  const head = Buffer.alloc(TABLE_HEADER_BYTES);
  if (readInto(fd, head, at) < TABLE_HEADER_BYTES) return { why: "cannot be read (truncated or altered)" };
  let header: unknown;
  try {
    header = JSON.parse(head.toString("utf8"));
  } catch {
    return { why: "cannot be read (truncated or altered)" };
  }
  const { format: written, rowBytes: width, count, sha256 } = (header ?? {}) as Record<string, unknown>;
  if (written !== format || width !== rowBytes) return { why: `is not of format ${format}` };
  if (!Number.isSafeInteger(count) || (count as number) < 0 || (count as number) * rowBytes > maxBytes)
    return { why: "does not match its digest (truncated or altered)" };
  const length = (count as number) * rowBytes;
  // A count the file cannot hold is a lie, found before its rows are allocated: a header claims what it likes.
  if (at + TABLE_HEADER_BYTES + length > fstatSync(fd).size)
    return { why: "does not match its digest (truncated or altered)" };
  const rows = new Uint8Array(shared ? new SharedArrayBuffer(length) : new ArrayBuffer(length));
  if (
    readInto(fd, rows, at + TABLE_HEADER_BYTES) < length ||
    sha256 !== createHash("sha256").update(rows).digest("base64url")
  )
    return { why: "does not match its digest (truncated or altered)" };
  const table = new SortedTable(rows, rowBytes);
  if (!table.isSorted()) return { why: "is not sorted" };
  return { table, end: at + TABLE_HEADER_BYTES + length };
}
