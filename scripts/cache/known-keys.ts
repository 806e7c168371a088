/**
 * The keys of the verification cache's entries as one sorted table of 32-byte digests in
 * a SharedArrayBuffer: every worker thread reads the same memory (a million keys are 32 MB
 * once, not once per thread), and finds a key by binary search.
 */
export const KEY_BYTES = 32;

export class KnownKeys {
  constructor(readonly table: Uint8Array) {}

  get size(): number {
    return this.table.length / KEY_BYTES;
  }

  /** The position of `key` in the table, or -1. */
  positionOf(key: Uint8Array): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareAt(this.table, middle * KEY_BYTES, key);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** The table's key at `at` against `key`, in place: a search makes no objects. */
function compareAt(table: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; i < KEY_BYTES; i++) if (table[at + i] !== key[i]) return table[at + i]! - key[i]!;
  return 0;
}
