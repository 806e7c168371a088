/** Durations and sizes in build's summary and check's progress, as people read them. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { duration, grouped, size } from "../../scripts/report/human-units.ts";

test("durations: milliseconds below a second, then seconds with one decimal, then minutes", () => {
  const cases: [number, string][] = [
    [0, "0 ms"],
    [839.6, "840 ms"],
    [999.4, "999 ms"],
    [1000, "1.0 s"],
    [13_640, "13.6 s"],
    [59_949, "59.9 s"],
    [59_950, "1 min 0 s"],
    [125_400, "2 min 5 s"],
  ];
  for (const [ms, text] of cases) assert.equal(duration(ms), text, String(ms));
});

test("sizes: bytes, then binary multiples with one decimal, never 1024.0 of a unit", () => {
  const cases: [number, string][] = [
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.0 KiB"],
    [10_650, "10.4 KiB"],
    [1024 * 1024 - 1, "1.0 MiB"],
    [25_270_000, "24.1 MiB"],
    [3 * 1024 ** 3, "3.0 GiB"],
  ];
  for (const [n, text] of cases) assert.equal(size(n), text, String(n));
});

test("counts: thousands grouped by commas, as en-US's locale writes them", () => {
  for (const n of [0, 7, 999, 1000, 20_000, 15_903, 100_001, 1_234_567, 2 ** 31])
    assert.equal(grouped(n), n.toLocaleString("en-US"), String(n));
});
