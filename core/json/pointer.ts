/** A member name as a token of a JSON pointer (RFC 6901), and back. */

export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The value at `pointer` in `value`, following each token as a member name or an array index. */
export function valueAtPointer(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of pointer.split("/").slice(1)) at = (at as Record<string, unknown>)[unescapePointerToken(token)];
  return at;
}
