/**
 * Entry bundles (tlog-tiles): the entries of one level 0 tile, each a big-endian uint16
 * length and then its bytes. Parsing is strict: a bundle that does not end exactly after
 * its last entry, or holds another count of entries than its width, is refused.
 */

/** The largest entry a bundle can hold: its length must fit in 16 bits. */
export const MAX_ENTRY_SIZE = 0xffff;

/** The most bytes a bundle of `width` entries can take: what a reader of a served one reads at most. */
export function maxBundleBytes(width: number): number {
  return width * (2 + MAX_ENTRY_SIZE);
}

export function entryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(entries.reduce((total, entry) => total + 2 + entry.length, 0));
  let offset = 0;
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_SIZE) throw new RangeError(`an entry of ${entry.length} bytes does not fit a bundle`);
    bytes[offset] = entry.length >> 8;
    bytes[offset + 1] = entry.length & 0xff;
    bytes.set(entry, offset + 2);
    offset += 2 + entry.length;
  }
  return bytes;
}

/** The `width` entries of `bundle`, or undefined when it is not exactly that many. */
export function parseEntryBundle(bundle: Uint8Array, width: number): Uint8Array[] | undefined {
  const entries: Uint8Array[] = [];
  let offset = 0;
  while (offset < bundle.length) {
    if (offset + 2 > bundle.length) return undefined;
    const length = (bundle[offset]! << 8) | bundle[offset + 1]!;
    if (offset + 2 + length > bundle.length) return undefined;
    entries.push(bundle.subarray(offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  return entries.length === width ? entries : undefined;
}
