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

  /** Whether every row names one of `count` entries, and every entry has exactly one key of its bytes. */
  isTableOf(count: number): boolean {
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

  /** Every row: its key, kind and entry position. */
  *rows(): Iterable<{ key: Uint8Array; kind: KeyKind; position: number }> {
    for (let row = 0; row < this.size; row++) {
      const word = this.#word(row);
      yield {
        key: this.table.subarray(row * ROW_BYTES, row * ROW_BYTES + KEY_BYTES),
        kind: (word >>> POSITION_BITS) as KeyKind,
        position: word & POSITION_MASK,
      };
    }
  }

  #word(row: number): number {
    return this.#words.getUint32(row * ROW_BYTES + KEY_BYTES, true);
  }
}

/**
 * A table of `rows` (key as latin1 text, kind, position), sorted by key: as text, since
 * V8 orders one-byte strings far faster than it compares buffers.
 */
export function keyTable(rows: readonly { key: string; kind: KeyKind; position: number }[]): Uint8Array {
  const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const table = Buffer.alloc(sorted.length * ROW_BYTES);
  sorted.forEach((row, i) => {
    table.write(row.key, i * ROW_BYTES, "latin1");
    table.writeUInt32LE(((row.kind << POSITION_BITS) | row.position) >>> 0, i * ROW_BYTES + KEY_BYTES);
  });
  return table;
}

/** The table's key at `at` against `key`, in place: a search makes no objects. */
function compareAt(table: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; i < KEY_BYTES; i++) if (table[at + i] !== key[i]) return table[at + i]! - key[i]!;
  return 0;
}
