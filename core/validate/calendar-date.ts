/**
 * Whether the date of an RFC 3339 date-time exists. RFC 3339 §5.7 bounds the day by the
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
