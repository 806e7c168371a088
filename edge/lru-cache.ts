/** Least-recently-used values, bounded by the total of their sizes. */
export class LruCache<V> {
  readonly #entries = new Map<string, { value: V; size: number }>();
  #size = 0;

  constructor(readonly maxSize: number) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, size: number): void {
    if (size > this.maxSize) return;
    this.delete(key);
    this.#entries.set(key, { value, size });
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#size <= this.maxSize) break;
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
  }

  /** Sets the size of `key`, if it still holds `value`. */
  resize(key: string, value: V, size: number): void {
    if (this.#entries.get(key)?.value === value) this.set(key, value, size);
  }

  /** Removes `key` (only if it holds `value`, when given). */
  delete(key: string, value?: V): void {
    const entry = this.#entries.get(key);
    if (entry === undefined || (value !== undefined && entry.value !== value)) return;
    this.#entries.delete(key);
    this.#size -= entry.size;
  }
}
