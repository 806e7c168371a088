/**
 * RFC 3339 date-times, read the one way every part of the code reads them (the validator,
 * the evaluator, status documents and lists, the build): below all of them, so that none
 * needs another's folder for a date.
 *
 * Whether the date of an RFC 3339 date-time exists: RFC 3339 §5.7 bounds the day by the
 * month and year (28, 29, 30 or 31); `Date.parse` does not, and reads 2026-02-30 as
 * 2026-03-02, so a rule comparing such a date would compare another one.
 */
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * Why the date at the start of `value` (YYYY-MM-DD) does not exist; undefined if it does, or if `value` starts with
 * no such date.
 */
export function noSuchDate(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) return `no such date: there is no month ${match[2]}`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days)
    return `no such date: ${MONTHS[month - 1]} has ${days} days${month === 2 ? ` in ${year}` : ""}`;
  return undefined;
}

const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Whether a value is an RFC 3339 date-time that names an instant (a clock given on a command line, say). */
export function isDateTime(value: unknown): value is string {
  return (
    typeof value === "string" &&
    RFC3339_DATE_TIME.test(value) &&
    noSuchDate(value) === undefined &&
    !Number.isNaN(Date.parse(value))
  );
}

/** Milliseconds since the epoch of an RFC 3339 date-time, or undefined if it is not one. */
export function instant(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  if (!Number.isNaN(ms)) return ms;
  // A leap second (23:59:60), which RFC 3339 and the schema's date-time format allow and
  // Date.parse does not read, is the instant after 23:59:59: an expiry must not be lost.
  const leap = /^(.{10}[Tt ]\d{2}:\d{2}:)60(.*)$/.exec(value);
  const before = leap === null ? NaN : Date.parse(`${leap[1]}59${leap[2]}`);
  return Number.isNaN(before) ? undefined : before + 1000;
}
