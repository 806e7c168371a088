/** `column`, or a copy of it at least twice as large when it is shorter than `length`: a column that grows. */
export function withRoom<T extends Uint8Array | Uint32Array>(column: T, length: number): T {
  if (length <= column.length) return column;
  const grown = new (column.constructor as new (length: number) => T)(Math.max(length, 2 * column.length));
  grown.set(column);
  return grown;
}
