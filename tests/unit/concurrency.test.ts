import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { mapConcurrent } from "../../scripts/concurrency.ts";

test("mapConcurrent keeps input order and never exceeds its limit", async () => {
  let inFlight = 0;
  let peak = 0;
  const items = Array.from({ length: 50 }, (_, i) => i);
  const results = await mapConcurrent(items, 4, async (i) => {
    peak = Math.max(peak, ++inFlight);
    await sleep((i * 7) % 5);
    inFlight--;
    return i * 2;
  });
  assert.deepEqual(
    results,
    items.map((i) => i * 2),
  );
  assert.equal(peak, 4);
});

test("mapConcurrent of nothing is nothing", async () => {
  assert.deepEqual(await mapConcurrent([], 4, async () => 1), []);
});
