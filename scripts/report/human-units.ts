/**
 * Durations and sizes as people read them, the way esbuild prints its summary ("840 ms",
 * "13.6 s", "24.1 MiB"): one decimal, binary multiples for bytes
 * (IEC 80000-13: KiB = 1024 B), a space before the unit (SI brochure §5.4.3).
 */

/** `ms` milliseconds: "840 ms", "13.6 s", "2 min 5 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * A count with its thousands grouped by commas, as en-US writes it: "20,000". Not by Intl (`toLocaleString`), whose
 * first use loads locale data: ~30 ms, more than `build --help` costs without it.
 */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}

const BYTE_UNITS = ["KiB", "MiB", "GiB", "TiB"];

/** `n` bytes: "512 B", "10.4 KiB", "24.1 MiB". */
export function size(n: number): string {
  if (n < 1024) return `${n} B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1023.95 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}
