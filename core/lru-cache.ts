/**
 * Least-recently-used values, bounded by the total of their sizes.
 *
 * A Map keeps insertion order, so its first entry is the one to evict and a read moves an
 * entry to the end. That move (a delete and an insert) is skipped while the entry is
 * still among the newer half: eviction reaches it only after every older one has gone, so
 * a hot entry is moved once per half-turn of the cache instead of on every read.
 */
export class LruCache<V> {
  readonly #entries = new Map<string, { value: V; size: number; stamp: number }>();
  #size = 0;
  /** Counts insertions at the end: the stamps of two entries bound how many lie between. */
  #stamp = 0;

  constructor(readonly maxSize: number) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const newer = this.#stamp - entry.stamp;
    if (newer > 0 && newer >= this.#entries.size >> 1) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      entry.stamp = ++this.#stamp;
    }
    return entry.value;
  }

  set(key: string, value: V, size: number): void {
    this.delete(key);
    if (size > this.maxSize) return;
    this.#entries.set(key, { value, size, stamp: ++this.#stamp });
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
