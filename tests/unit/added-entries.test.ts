/**
 * A run's new cache entries (scripts/cache/added-entries.ts): their JSON goes to a spill file once it passes a chunk,
 * comes back in order, whole or with entries left out, and stays in memory where no file can be written.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { AddedEntries } from "../../scripts/cache/added-entries.ts";
import { KEY_KINDS } from "../../scripts/cache/known-keys.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-added-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Past the 1 MiB of text gathered before a chunk is written out. */
const ENTRIES = 6000;
const jsonOf = (i: number) => JSON.stringify([`urn:added:${i}`, "x".repeat(200 + (i % 7))]);
const keyOf = (i: number) => createHash("sha256").update(String(i)).digest();

function filled(spillPath: string): AddedEntries {
  const added = new AddedEntries(spillPath);
  for (let i = 0; i < ENTRIES; i++)
    added.add(keyOf(i), i % 2 === 0 ? { key: keyOf(-i), kind: KEY_KINDS.git } : undefined, "", jsonOf(i), 0, 0);
  return added;
}

const text = (chunks: Iterable<Uint8Array>) => Buffer.concat([...chunks]).toString();
const all = Array.from({ length: ENTRIES }, (_, i) => i);

describe("the entries a run adds", () => {
  it("spill their JSON to a file beside the cache, and give it back in order, then remove it", () => {
    const spill = join(scratch, "cache", "verification.json.1.added");
    const added = filled(spill);
    assert.ok(existsSync(spill));
    assert.equal(text(added.json(all)), all.map(jsonOf).join(""));
    assert.deepEqual(Buffer.from(added.key(5)), keyOf(5));
    assert.deepEqual(Buffer.from(added.alias(4)!.key), keyOf(-4));
    assert.equal(added.alias(4)!.kind, KEY_KINDS.git);
    assert.equal(added.alias(5), undefined);
    added.dispose();
    assert.deepEqual(readdirSync(join(scratch, "cache")), []);
  });

  it("leave out entries not named", () => {
    const added = filled(join(scratch, "some", "verification.json.2.added"));
    const some = all.filter((i) => i % 3 !== 1);
    assert.equal(text(added.json(some)), some.map(jsonOf).join(""));
    added.dispose();
  });

  it("stay in memory where no spill file can be made", () => {
    writeFileSync(join(scratch, "a-file"), "");
    const spill = join(scratch, "a-file", "verification.json.3.added");
    const added = filled(spill);
    assert.equal(existsSync(spill), false);
    assert.equal(text(added.json(all)), all.map(jsonOf).join(""));
  });
});
