/**
 * The keys of the verification cache's entries, and their aliases (file-identity.ts), as
 * one table sorted by key in a SharedArrayBuffer: every worker thread reads the same
 * memory (a million entries' keys are tens of megabytes once, not once per thread), and
 * finds a key by binary search. A row is the 32-byte key, then a 32-bit little-endian
 * word: the key's kind in the top two bits, the entry's position below.
 */
export const KEY_BYTES = 32;
export const ROW_BYTES = KEY_BYTES + 4;

/** What a key is made of: a file's bytes (every entry has one), or one of its aliases. */
export const KEY_KINDS = { bytes: 0, git: 1, stat: 2 } as const;
export type KeyKind = (typeof KEY_KINDS)[keyof typeof KEY_KINDS];

const POSITION_BITS = 30;
const POSITION_MASK = (1 << POSITION_BITS) - 1;

export class KnownKeys {
  readonly #words: DataView;

  constructor(readonly table: Uint8Array) {
    this.#words = new DataView(table.buffer, table.byteOffset, table.byteLength);
  }

  get size(): number {
    return this.table.length / ROW_BYTES;
  }

  /** The position of the entry whose key or alias is `key`, or -1. */
  positionOf(key: Uint8Array): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareAt(this.table, middle * ROW_BYTES, key);
      if (order === 0) return this.#word(middle) & POSITION_MASK;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /**
   * Whether the rows are sorted by key, each key once, every row names one of `count`
   * entries, and every entry has exactly one key of its bytes.
   */
  isTableOf(count: number): boolean {
    const keyed = new Uint8Array(count);
    for (let row = 0; row < this.size; row++) {
      const at = row * ROW_BYTES;
      if (row > 0 && compareAt(this.table, at - ROW_BYTES, this.table.subarray(at, at + KEY_BYTES)) >= 0) return false;
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

/** A row to put into a table. */
export interface KeyRow {
  key: Uint8Array;
  kind: KeyKind;
  position: number;
}

/**
 * The table of `old`'s rows and `added`, sorted by key, merged in one pass: a run that
 * adds a few entries to a million copies the million rows, never sorts them. Each old row
 * is renumbered by `renumber` (its entry's new position), or left out where that gives
 * -1; where `added` has a key `old` has, or has it twice, the last added row wins.
 */
export function mergedTable(
  old: KnownKeys,
  renumber: (position: number, kind: KeyKind) => number,
  added: readonly KeyRow[],
): Uint8Array {
  const sorted = uniqueSorted(added);
  const out = Buffer.alloc((old.size + sorted.length) * ROW_BYTES);
  let rows = 0;
  const put = (key: Uint8Array, kind: KeyKind, position: number) => {
    out.set(key, rows * ROW_BYTES);
    out.writeUInt32LE(((kind << POSITION_BITS) | position) >>> 0, rows * ROW_BYTES + KEY_BYTES);
    rows++;
  };
  let next = 0;
  for (let row = 0; row < old.size; row++) {
    const at = row * ROW_BYTES;
    for (; next < sorted.length && compareAt(old.table, at, sorted[next]!.key) > 0; next++) {
      const { key, kind, position } = sorted[next]!;
      put(key, kind, position);
    }
    if (next < sorted.length && compareAt(old.table, at, sorted[next]!.key) === 0) continue;
    const { kind, position } = old.rowAt(row);
    const renumbered = renumber(position, kind);
    if (renumbered >= 0) put(old.table.subarray(at, at + KEY_BYTES), kind, renumbered);
  }
  for (const { key, kind, position } of sorted.slice(next)) put(key, kind, position);
  return out.subarray(0, rows * ROW_BYTES);
}

/** `rows` sorted by key, one per key (the last): as latin1 text, which V8 orders far faster than buffers. */
function uniqueSorted(rows: readonly KeyRow[]): KeyRow[] {
  const byKey = new Map<string, KeyRow>();
  for (const row of rows) byKey.set(Buffer.from(row.key.buffer, row.key.byteOffset, KEY_BYTES).toString("latin1"), row);
  return [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** The table's key at `at` against `key`, in place: a search makes no objects. */
function compareAt(table: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; i < KEY_BYTES; i++) if (table[at + i] !== key[i]) return table[at + i]! - key[i]!;
  return 0;
}
