/**
 * The verification cache's key table (scripts/cache/known-keys.ts): rows added in any order become a sorted table, one
 * row per key (the last added); a merge with an older table renumbers or drops its rows, and lets added rows win.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { KEY_KINDS, KeyRows, KnownKeys, mergedTable, ROW_BYTES } from "../../scripts/cache/known-keys.ts";

const keyOf = (n: number) => createHash("sha256").update(String(n)).digest();

/** Every row of a table: its key's number (by `keyOf`), kind and position, in table order. */
function rowsOf(table: KnownKeys, numbers: number[]): [number, number, number][] {
  const byHex = new Map(numbers.map((n) => [keyOf(n).toString("hex"), n]));
  return Array.from({ length: table.size }, (_, row) => {
    const hex = Buffer.from(table.table.subarray(row * ROW_BYTES, row * ROW_BYTES + 32)).toString("hex");
    const { kind, position } = table.rowAt(row);
    return [byHex.get(hex)!, kind, position];
  });
}

/** Each row's key before the next one's: sorted, and each key once. */
function assertSorted(table: KnownKeys): void {
  const keyAt = (row: number) => table.table.subarray(row * ROW_BYTES, row * ROW_BYTES + 32);
  for (let row = 1; row < table.size; row++) assert.ok(Buffer.compare(keyAt(row - 1), keyAt(row)) < 0, `row ${row}`);
}

describe("the cache's key table", () => {
  it("sorts rows added in any order, keeping the last of each key, and finds each by binary search", () => {
    const rows = new KeyRows();
    for (let n = 0; n < 3000; n++) rows.add(keyOf(n), KEY_KINDS.bytes, n);
    rows.add(keyOf(7), KEY_KINDS.git, 9999);
    const table = rows.table();
    assert.equal(table.size, 3000);
    assertSorted(table);
    assert.equal(table.positionOf(keyOf(7)), 9999);
    assert.equal(table.positionOf(keyOf(2999)), 2999);
    assert.equal(table.positionOf(keyOf(-1)), -1);
  });

  it("merges an old table: rows renumbered or dropped, and an added row wins over an old one of its key", () => {
    const oldRows = new KeyRows();
    for (let n = 0; n < 6; n++) oldRows.add(keyOf(n), KEY_KINDS.bytes, n);
    const old = oldRows.table();
    const added = new KeyRows();
    added.add(keyOf(2), KEY_KINDS.bytes, 10);
    added.add(keyOf(100), KEY_KINDS.git, 11);
    // Old entry 4 is dropped; the others move up by one.
    const merged = new KnownKeys(mergedTable(old, (position) => (position === 4 ? -1 : position + 1), added));
    assert.deepEqual(
      rowsOf(merged, [0, 1, 2, 3, 4, 5, 100]).sort((a, b) => a[0] - b[0]),
      [
        [0, KEY_KINDS.bytes, 1],
        [1, KEY_KINDS.bytes, 2],
        [2, KEY_KINDS.bytes, 10],
        [3, KEY_KINDS.bytes, 4],
        [5, KEY_KINDS.bytes, 6],
        [100, KEY_KINDS.git, 11],
      ],
    );
    assertSorted(merged);
  });
});
