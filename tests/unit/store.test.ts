/**
 * The cache folder's pieces (scripts/store/): the one sorted-table format (rows found where they lie, a file trusted
 * only while it matches its digest and is sorted), the one atomic writer (the old file or the new, never a part, and
 * no temporary left by a refused write), the one sweep (only what is stale and named as no one's), and many buffers
 * written in one call.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { writeAtomically } from "../../scripts/store/atomic-write.ts";
import { readTable, SortedTable, TableRows, tableParts } from "../../scripts/store/sorted-table.ts";
import { sweep } from "../../scripts/store/sweep.ts";
import { writeParts } from "../../scripts/store/write-parts.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-store-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const ROW_BYTES = 40;
const keyOf = (n: number) => createHash("sha256").update(String(n)).digest();

/** A table of `numbers`, each row its key then the number (uint32) and its order of adding. */
function tableOf(numbers: number[]) {
  const rows = new TableRows(ROW_BYTES);
  numbers.forEach((n, i) => {
    const at = rows.add();
    rows.bytes.set(keyOf(n), at);
    new DataView(rows.bytes.buffer).setUint32(at + 32, n, true);
    new DataView(rows.bytes.buffer).setUint32(at + 36, i, true);
  });
  return rows.table();
}

/** The table written to `file` after `prefix` bytes, as a cache file holds it. */
function written(file: string, table: SortedTable, prefix = 0): void {
  writeAtomically(file, (fd) => {
    writeSync(fd, Buffer.alloc(prefix));
    for (const part of tableParts("test table 1", table)) writeSync(fd, part);
  });
}

function read(file: string, at = 0, format = "test table 1", maxBytes = 1 << 20) {
  const fd = openSync(file, "r");
  try {
    return readTable(fd, at, format, ROW_BYTES, maxBytes);
  } finally {
    closeSync(fd);
  }
}

describe("the sorted table", () => {
  it("sorts rows added in any order, keeps the last of each key, and finds each key by binary search", () => {
    const numbers = [5, 3, 9, 3, 1, 7, 5];
    const table = tableOf(numbers);
    assert.equal(table.size, 5);
    assert.ok(table.isSorted());
    for (const n of numbers) {
      const row = table.rowOf(keyOf(n));
      assert.ok(row >= 0, `key ${n}`);
      const view = new DataView(table.rows.buffer, table.rows.byteOffset);
      assert.equal(view.getUint32(row * ROW_BYTES + 32, true), n);
      // The last added of a key wins.
      assert.equal(view.getUint32(row * ROW_BYTES + 36, true), numbers.lastIndexOf(n));
    }
    assert.equal(table.rowOf(keyOf(4)), -1);
  });

  it("reads back what it wrote, where it lies in a file, in shared memory when asked", () => {
    const file = join(scratch, "table");
    const table = tableOf(Array.from({ length: 1000 }, (_, i) => i));
    written(file, table, 10);
    const fd = openSync(file, "r");
    const back = readTable(fd, 10, "test table 1", ROW_BYTES, 1 << 20, true);
    closeSync(fd);
    assert.ok("table" in back);
    assert.ok(back.table.rows.buffer instanceof SharedArrayBuffer);
    assert.deepEqual(Buffer.from(back.table.rows), Buffer.from(table.rows));
    assert.equal(back.end, statSync(file).size);
  });

  it("is not trusted when its rows do not match their digest, are not sorted, or are of another format", () => {
    const file = join(scratch, "damaged");
    const table = tableOf([1, 2, 3, 4]);
    written(file, table);
    assert.deepEqual(read(file, 0, "test table 2"), { why: "is not of format test table 2" });
    const bytes = readFileSync(file);
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(file, bytes);
    assert.deepEqual(read(file), { why: "does not match its digest (truncated or altered)" });
    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    assert.deepEqual(read(file), { why: "does not match its digest (truncated or altered)" });
    // Two rows swapped, the digest made again: sorted is part of the format.
    const swapped = Buffer.from(table.rows);
    swapped.copy(swapped, 0, ROW_BYTES, 2 * ROW_BYTES);
    Buffer.from(table.rows).copy(swapped, ROW_BYTES, 0, ROW_BYTES);
    written(file, new SortedTable(swapped, ROW_BYTES));
    assert.deepEqual(read(file), { why: "is not sorted" });
  });

  it("believes no header's count of rows beyond what its file holds: nothing is allocated for them", () => {
    const file = join(scratch, "lying");
    written(file, tableOf([1, 2]));
    const bytes = readFileSync(file);
    // 2^34 rows claimed by a file of two, under a limit that allows them: reading them would take 640 GiB.
    const header = JSON.parse(bytes.subarray(0, 256).toString());
    header.count = 2 ** 34;
    writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(header).padEnd(255)}\n`), bytes.subarray(256)]));
    assert.deepEqual(read(file, 0, "test table 1", 2 ** 41), {
      why: "does not match its digest (truncated or altered)",
    });
  });
});

describe("the atomic writer", () => {
  it("replaces a file whole, keeping its permissions, and leaves no temporary", () => {
    const dir = join(scratch, "writer");
    mkdirSync(dir);
    const file = join(dir, "state.json");
    writeAtomically(file, "one");
    assert.equal(statSync(file).mode & 0o777, 0o644);
    chmodSync(file, 0o600);
    writeAtomically(file, new TextEncoder().encode("two"));
    assert.equal(readFileSync(file, "utf8"), "two");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ["state.json"]);
  });

  it("keeps the old file's permissions whole, the bits the umask would take away too", () => {
    const dir = join(scratch, "umask");
    mkdirSync(dir);
    const file = join(dir, "shared.json");
    writeFileSync(file, "old");
    // Group- and world-writable: bits a umask of 022 (the usual one) takes from every new file.
    chmodSync(file, 0o666);
    const umask = process.umask(0o022);
    try {
      writeAtomically(file, "new");
    } finally {
      process.umask(umask);
    }
    assert.equal(statSync(file).mode & 0o777, 0o666);
  });

  it("leaves the old file and no temporary when the write is refused part way", () => {
    const dir = join(scratch, "refused");
    mkdirSync(dir);
    const file = join(dir, "state.json");
    writeFileSync(file, "old");
    assert.throws(
      () =>
        writeAtomically(file, (fd) => {
          writeSync(fd, "half");
          throw new Error("no room");
        }),
      /no room/,
    );
    assert.equal(readFileSync(file, "utf8"), "old");
    assert.deepEqual(readdirSync(dir), ["state.json"]);
  });
});

describe("the sweep", () => {
  it("removes temporaries and what no one names once an hour old, at once in a folder its caller holds locked", () => {
    const dir = join(scratch, "sweep");
    mkdirSync(join(dir, "old-folder"), { recursive: true });
    const names = [".state.json.0123456789ab.tmp", ".state.json.ba9876543210.tmp", "seg-dead", "seg-live", "kept"];
    for (const name of names) writeFileSync(join(dir, name), "left");
    const old = (Date.now() - 3700_000) / 1000;
    for (const name of [".state.json.0123456789ab.tmp", "seg-dead", "kept", "old-folder"])
      utimesSync(join(dir, name), old, old);
    const unnamed = (name: string) => name.startsWith("seg-") || name === "old-folder";
    sweep(dir, { unnamed });
    assert.deepEqual(readdirSync(dir).sort(), [".state.json.ba9876543210.tmp", "kept", "seg-live"]);
    sweep(dir, { unnamed, locked: true });
    assert.deepEqual(readdirSync(dir), ["kept"]);
  });
});

it("writeParts writes every part in order, past the system's limit of buffers a call, or fails", () => {
  const dir = mkdtempSync(join(tmpdir(), "um-parts-"));
  try {
    const path = join(dir, "parts");
    // More parts than IOV_MAX (1,024 on Linux), empty ones and multi-byte text among them.
    const parts = Array.from({ length: 3000 }, (_, i) => Buffer.from(i % 7 === 0 ? "" : `${i}é`.repeat(i % 13)));
    const fd = openSync(path, "wx");
    try {
      writeParts(fd, parts.slice(0, 1500));
      writeParts(fd, parts.slice(1500));
    } finally {
      closeSync(fd);
    }
    assert.deepEqual(readFileSync(path), Buffer.concat(parts));
    const readOnly = openSync(path, "r");
    try {
      assert.throws(() => writeParts(readOnly, [Buffer.from("x")]), { code: "EBADF" });
    } finally {
      closeSync(readOnly);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
