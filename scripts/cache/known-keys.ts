/**
 * The keys of the verification cache's usable entries as one sorted table of 32-byte
 * digests in a SharedArrayBuffer: every worker thread reads the same memory (a million
 * keys are 32 MB once, not once per thread), and finds a key by binary search.
 */
export const KEY_BYTES = 32;

export class KnownKeys {
  constructor(readonly table: Uint8Array) {}

  /** The table of `keys`, sorted, and for each of its positions the index of the key it came from. */
  static of(keys: readonly Uint8Array[]): { known: KnownKeys; origin: Uint32Array } {
    const order = keys.map((_, i) => i).sort((a, b) => compare(keys[a]!, keys[b]!));
    const table = new Uint8Array(new SharedArrayBuffer(keys.length * KEY_BYTES));
    order.forEach((from, at) => table.set(keys[from]!, at * KEY_BYTES));
    return { known: new KnownKeys(table), origin: Uint32Array.from(order) };
  }

  get size(): number {
    return this.table.length / KEY_BYTES;
  }

  /** The position of `key` in the table, or -1. */
  positionOf(key: Uint8Array): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compare(this.table.subarray(middle * KEY_BYTES, (middle + 1) * KEY_BYTES), key);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < KEY_BYTES; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
