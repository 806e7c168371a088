/**
 * Values quoted in messages, cut short. A manifest may hold a million-digit number, or a
 * string or member name of a megabyte, and so may anything else a message quotes; every
 * message (a check's problem, a receipt's warning or reason, a usage error) quotes at most
 * an excerpt of it and says how much was left out, so that no report grows with the value
 * it is about.
 */

/** Characters of a value a message quotes, at most, before saying how many more there were. */
export const EXCERPT_LENGTH = 200;

/** `text` whole when short; else its first EXCERPT_LENGTH characters and how many more there were. */
export function excerpt(text: string): string {
  if (text.length <= EXCERPT_LENGTH) return text;
  // Never between the halves of a surrogate pair: half of one is not text.
  const end = isHighSurrogate(text.charCodeAt(EXCERPT_LENGTH - 1)) ? EXCERPT_LENGTH - 1 : EXCERPT_LENGTH;
  const more = text.length - end;
  return `${text.slice(0, end)}… (${more} more character${more === 1 ? "" : "s"})`;
}

/**
 * A value as JSON, as a message quotes it: an excerpt when long. Never throws: a value
 * given to the library (not parsed from JSON) may be a BigInt, or hold a cycle.
 */
export function quoted(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // A BigInt, or an object holding a cycle: described below instead.
  }
  if (json !== undefined) return excerpt(json);
  return typeof value === "object"
    ? "(an object that is not JSON)"
    : typeof value === "function"
      ? "(a function)"
      : excerpt(String(value));
}

/**
 * A JSON pointer as a message shows it: each member name in it an excerpt, so that a
 * megabyte name does not make a megabyte place. A name that is an excerpt already (the
 * receipt's pointer, printed again) is left as it is, or it would be cut twice.
 */
export function pointerExcerpt(pointer: string): string {
  return pointer.length <= EXCERPT_LENGTH
    ? pointer
    : pointer
        .split("/")
        .map((name) => (EXCERPTED.test(name) ? name : excerpt(name)))
        .join("/");
}

const EXCERPTED = new RegExp(`^[^]{0,${EXCERPT_LENGTH}}… \\(\\d+ more characters?\\)$`);

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
