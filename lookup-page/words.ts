/**
 * The evaluator's and the client's sentences as the page shows them to a person: the
 * registry code a receipt's reason starts with (`um:reason:…: `) goes behind the page's
 * "Reason codes" toggle, times lose their milliseconds, and a UMID or URL of any length
 * keeps a bounded size (a 3,000-character UMID is one collapsed copy, not four screens).
 */

const LEADING_CODE = /^um:reason:[a-z-]+:[a-z-]+:\s*/;
/** The JSON pointer a check's sentence starts with ("/signature/value: …"), which the reason codes block keeps. */
const LEADING_POINTER = /^(\/[^\s:]*)+:\s+/;
const FRACTIONAL_SECONDS = /(\d{2}:\d{2}:\d{2})\.\d+(Z|[+-]\d{2}:\d{2})/g;

/** `text` without a leading reason code or JSON pointer, and its timestamps to the second. */
export function plain(text: string): string {
  return text.replace(LEADING_CODE, "").replace(LEADING_POINTER, "").replace(FRACTIONAL_SECONDS, "$1$2");
}

/** An RFC 3339 instant as a person reads it: "2026-11-23 14:05 UTC"; anything else as it is. */
export function instantWords(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return instant;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `text` of at most `max` characters: its head and its tail around an ellipsis, both parts a UMID tells apart by. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor((max - 1) / 3);
  return `${text.slice(0, max - 1 - tail)}…${text.slice(text.length - tail)}`;
}
