/**
 * The keys of the verification cache's entries, and their aliases (file-identity.ts), as
 * one table sorted by key, of the store's one format (scripts/store/sorted-table.ts), in a
 * SharedArrayBuffer: every worker thread reads the same memory (a million entries' keys
 * are tens of megabytes once, not once per thread), and finds a key by binary search. A
 * row is the 32-byte key, then a 32-bit little-endian word: the key's kind in the top two
 * bits, the entry's position below.
 */
import { compareKeyAt, KEY_BYTES, SortedTable, TableRows } from "../store/sorted-table.ts";

export const ROW_BYTES = KEY_BYTES + 4;

/** What a key is made of: a file's bytes (every entry has one), or one of its aliases. */
export const KEY_KINDS = { bytes: 0, git: 1, stat: 2 } as const;
export type KeyKind = (typeof KEY_KINDS)[keyof typeof KEY_KINDS];

const POSITION_BITS = 30;
const POSITION_MASK = (1 << POSITION_BITS) - 1;

export class KnownKeys {
  readonly #sorted: SortedTable;
  readonly #words: DataView;

  constructor(readonly table: Uint8Array) {
    this.#sorted = new SortedTable(table, ROW_BYTES);
    this.#words = new DataView(table.buffer, table.byteOffset, table.byteLength);
  }

  get size(): number {
    return this.#sorted.size;
  }

  /** The position of the entry whose key or alias is `key`, or -1. */
  positionOf(key: Uint8Array): number {
    const row = this.#sorted.rowOf(key);
    return row < 0 ? -1 : this.#word(row) & POSITION_MASK;
  }

  /**
   * Whether the rows are sorted by key, each key once, every row names one of `count`
   * entries, and every entry has exactly one key of its bytes.
   */
  isTableOf(count: number): boolean {
    if (!this.#sorted.isSorted()) return false;
    const keyed = new Uint8Array(count);
    for (let row = 0; row < this.size; row++) {
      const word = this.#word(row);
      const position = word & POSITION_MASK;
      const kind = word >>> POSITION_BITS;
      if (position >= count || kind > KEY_KINDS.stat) return false;
      if (kind !== KEY_KINDS.bytes) continue;
      if (keyed[position] !== 0) return false;
      keyed[position] = 1;
    }
    return keyed.every((n) => n === 1);
  }

  /** The kind and entry position of the row at `row`. */
  rowAt(row: number): { kind: KeyKind; position: number } {
    const word = this.#word(row);
    return { kind: (word >>> POSITION_BITS) as KeyKind, position: word & POSITION_MASK };
  }

  #word(row: number): number {
    return this.#words.getUint32(row * ROW_BYTES + KEY_BYTES, true);
  }
}

/** Rows to put into a table, in its own row format and in any order. */
export class KeyRows {
  readonly #rows = new TableRows(ROW_BYTES);

  get count(): number {
    return this.#rows.count;
  }

  add(key: Uint8Array, kind: KeyKind, position: number): void {
    const at = this.#rows.add();
    const bytes = this.#rows.bytes;
    bytes.set(key.subarray(0, KEY_BYTES), at);
    new DataView(bytes.buffer).setUint32(at + KEY_BYTES, ((kind << POSITION_BITS) | position) >>> 0, true);
  }

  /** The rows as a table: sorted by key, and of rows with one key, only the last added. */
  table(): KnownKeys {
    return new KnownKeys(this.#rows.table().rows);
  }
}

/**
 * The table of `old`'s rows and `added`, merged in one pass: a run that adds a few
 * entries to a million copies the million rows, never sorts them. Each old row is
 * renumbered by `renumber` (its entry's new position), or left out where that gives -1;
 * where `added` has a key `old` has, the added row wins.
 */
export function mergedTable(
  old: KnownKeys,
  renumber: (position: number, kind: KeyKind) => number,
  added: KeyRows,
): Uint8Array {
  const sorted = added.table();
  const out = new Uint8Array((old.size + sorted.size) * ROW_BYTES);
  const words = new DataView(out.buffer);
  let rows = 0;
  const put = (from: Uint8Array, at: number, kind: KeyKind, position: number) => {
    out.set(from.subarray(at, at + KEY_BYTES), rows * ROW_BYTES);
    words.setUint32(rows * ROW_BYTES + KEY_BYTES, ((kind << POSITION_BITS) | position) >>> 0, true);
    rows++;
  };
  const putAdded = (row: number) => {
    const { kind, position } = sorted.rowAt(row);
    put(sorted.table, row * ROW_BYTES, kind, position);
  };
  let next = 0;
  const nextKey = () => sorted.table.subarray(next * ROW_BYTES, next * ROW_BYTES + KEY_BYTES);
  for (let row = 0; row < old.size; row++) {
    const at = row * ROW_BYTES;
    for (; next < sorted.size && compareKeyAt(old.table, at, nextKey()) > 0; next++) putAdded(next);
    if (next < sorted.size && compareKeyAt(old.table, at, nextKey()) === 0) continue;
    const { kind, position } = old.rowAt(row);
    const renumbered = renumber(position, kind);
    if (renumbered >= 0) put(old.table, at, kind, renumbered);
  }
  for (; next < sorted.size; next++) putAdded(next);
  return out.subarray(0, rows * ROW_BYTES);
}
