/**
 * The latest map (core/tlog/latest-map.ts): which entry is each UMID's latest, committed in
 * a checkpoint's extension line, proven for one UMID by its bucket file alone; and the
 * log's entry format (core/tlog/log-entry.ts), read back only as written.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utf8 } from "../../core/base64url.ts";
import {
  bucketFile,
  bucketOf,
  formatLatestLine,
  LATEST_EXTENSION,
  latestEntryIn,
  latestMap,
  parseLatestLine,
} from "../../core/tlog/latest-map.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { formatLogEntry, type LogEntry, logEntryText, parseLogEntry } from "../../core/tlog/log-entry.ts";

const umids = (n: number) => Array.from({ length: n }, (_, i) => `urn:um:test:${i}`);

describe("the latest map", () => {
  it("keeps the mean bucket at 256 UMIDs at most", async () => {
    assert.equal((await latestMap(umids(256))).bits, 0);
    assert.equal((await latestMap(umids(257))).bits, 1);
    assert.equal((await latestMap(umids(1025))).bits, 3);
    assert.equal((await latestMap([])).buckets.length, 1);
  });

  it("maps each UMID to its latest entry, and proves it from its bucket file", async () => {
    // 600 entries, 400 UMIDs: the first 200 appear twice, the second time superseding the first.
    const order = [...umids(400), ...umids(200)];
    const map = await latestMap(order);
    for (const [i, umid] of umids(400).entries()) {
      const bucket = bucketOf(umid, map.bits);
      const found = latestEntryIn(await bucketFile(map, bucket), umid, map);
      assert.deepEqual(found, { ok: true, index: i < 200 ? 400 + i : i });
    }
  });

  it("keeps a UMID named like a prototype member", async () => {
    const map = await latestMap(["__proto__", "constructor"]);
    for (const [index, umid] of ["__proto__", "constructor"].entries())
      assert.deepEqual(latestEntryIn(await bucketFile(map, 0), umid, map), { ok: true, index });
  });

  it("says when a UMID has no entry, and refuses a bucket that is not the committed one", async () => {
    const map = await latestMap(umids(600));
    const absent = "urn:um:test:absent";
    const file = await bucketFile(map, bucketOf(absent, map.bits));
    assert.deepEqual(latestEntryIn(file, absent, map), { ok: false, reason: "not-logged" });

    const umid = umids(600)[7]!;
    const honest = JSON.parse(new TextDecoder().decode(await bucketFile(map, bucketOf(umid, map.bits))));
    const rolledBack = { ...honest, latest: { ...honest.latest, [umid]: 0 } };
    assert.deepEqual(latestEntryIn(utf8(JSON.stringify(rolledBack)), umid, map), { ok: false, reason: "mismatch" });
    // Another bucket, honest in itself, does not prove this UMID's.
    const other = await bucketFile(map, (bucketOf(umid, map.bits) + 1) % 2 ** map.bits);
    assert.equal(latestEntryIn(other, umid, map).ok, false);
    const withoutUmid = {
      ...honest,
      latest: Object.fromEntries(Object.entries(honest.latest).filter(([u]) => u !== umid)),
    };
    assert.deepEqual(latestEntryIn(utf8(JSON.stringify(withoutUmid)), umid, map), { ok: false, reason: "mismatch" });
    for (const bad of [
      '{"latest":{},"proof":"x"}',
      '{"latest":{"a":-1},"proof":[]}',
      '{"latest":{"a":1,"a":2},"proof":[]}',
      // Nested past any bucket's depth: refused, not a stack overflow.
      `{"latest":{},"proof":${"[".repeat(20_000)}`,
      `{"latest":${'{"a":'.repeat(20_000)}`,
    ])
      assert.deepEqual(latestEntryIn(utf8(bad), "a", map), { ok: false, reason: "malformed" });
  });

  it("is committed in exactly one extension line, read back only as written", async () => {
    const map = await latestMap(umids(3));
    const line = formatLatestLine(map);
    assert.match(line, new RegExp(`^${LATEST_EXTENSION} 0 [A-Za-z0-9+/]{43}=$`));
    assert.deepEqual(parseLatestLine(["other", line]), { bits: 0, root: map.root });
    assert.equal(parseLatestLine([]), undefined);
    assert.equal(parseLatestLine([line, line]), undefined);
    assert.equal(parseLatestLine([line.replace(" 0 ", " 00 ")]), undefined);
    assert.equal(parseLatestLine([line.replace(" 0 ", " 25 ")]), undefined);
    assert.equal(parseLatestLine([`${line} `]), undefined);
  });
});

describe("log entries", () => {
  it("round-trips the three kinds, as JCS bytes", () => {
    const kinds = [
      { umid: "urn:um:a", state: "active", sha256: "x" },
      { umid: "urn:um:a", state: "suspended", sha256: "x" },
      { umid: "urn:um:a", state: "revoked" },
      { umid: "urn:um:a", state: "redirected", location: "https://b.example/" },
    ] as const;
    for (const entry of kinds) assert.deepEqual(parseLogEntry(formatLogEntry(entry)), entry);
  });

  it("spells each entry as canonicalize does, whatever its strings hold", () => {
    const odd = ['q"uote', "back\\slash", "\u0000\u001f\n", "é ✓ 😀", "\u2028\u2029", "\u007f", "</script>"];
    for (const text of odd) {
      const kinds: LogEntry[] = [
        { umid: text, state: "active", sha256: text },
        { umid: text, state: "revoked" },
        { umid: text, state: "redirected", location: text },
      ];
      for (const entry of kinds) {
        assert.equal(logEntryText(entry), canonicalize(entry));
        assert.deepEqual(parseLogEntry(formatLogEntry(entry)), entry);
      }
    }
    assert.throws(() => logEntryText({ umid: "\ud800", state: "revoked" }));
  });

  it("refuses anything the log does not write", () => {
    for (const text of [
      '{"umid":"urn:um:a","state":"revoked"}',
      '{"umid":"urn:um:a", "state":"revoked"}',
      '{"state":"revoked","umid":1}',
      '{"sha256":"x","state":"revoked","umid":"urn:um:a"}',
      '{"state":"active","umid":"urn:um:a"}',
      '{"state":"gone","umid":"urn:um:a"}',
      "[]",
    ])
      assert.equal(parseLogEntry(utf8(text)), undefined, text);
  });

  it("refuses, without throwing, an entry whose string holds a lone surrogate: JCS cannot spell it", () => {
    for (const text of [
      '{"state":"revoked","umid":"\\ud800"}',
      '{"state":"revoked","umid":"a\\udc00"}',
      '{"sha256":"\\ud800","state":"active","umid":"urn:um:a"}',
      '{"location":"https://b.example/\\udfff","state":"redirected","umid":"urn:um:a"}',
    ])
      assert.equal(parseLogEntry(utf8(text)), undefined, text);
  });
});
