import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { kvKey, MAX_KV_KEY_BYTES } from "../../edge/records.ts";
import { kvFiles } from "../support/kv-files.ts";
import { KV_FILE_BYTES, KV_PAIRS_PER_FILE, KvWriter } from "../../scripts/write/kv-writer.ts";

test("KV bulk files hold at most 10,000 pairs each, in wrangler's format", async () => {
  const dir = mkdtempSync(join(tmpdir(), "um-kv-"));
  try {
    const writer = new KvWriter(dir);
    const active = { status: "active", updatedAt: "2026-11-01T00:00:00.000Z", nextCheck: "PT10M" } as const;
    const revoked = {
      status: "revoked",
      updatedAt: "2026-11-02T00:00:00.000Z",
      reason: "lost key",
      nextCheck: "PT10M",
    } as const;
    for (let i = 0; i < KV_PAIRS_PER_FILE; i++)
      await writer.manifest(`urn:kv:${i}`, new TextEncoder().encode(`{"n":${i}}`), `W/"sha256-${i}"`, active);
    await writer.redirect("urn:kv:moved", "https://elsewhere.example/");
    await writer.revoked("urn:kv:gone", revoked);
    assert.equal(writer.finish(), 2);
    assert.deepEqual(kvFiles(dir), ["kv-0001/kv-0000001.json", "kv-0001/kv-0000002.json"]);
    const [first, second] = kvFiles(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
    assert.equal(first.length, KV_PAIRS_PER_FILE);
    assert.deepEqual(first[7], {
      key: "um:urn:kv:7",
      value: '{"n":7}',
      metadata: { etag: 'W/"sha256-7"', status: active },
    });
    assert.deepEqual(second, [
      { key: "um:urn:kv:moved", value: "https://elsewhere.example/", metadata: { redirect: true } },
      { key: "um:urn:kv:gone", value: "", metadata: { revoked: true, status: revoked } },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a UMID too long for a KV key is keyed by its digest", async () => {
  assert.equal(await kvKey("x".repeat(MAX_KV_KEY_BYTES - 3)), `um:${"x".repeat(MAX_KV_KEY_BYTES - 3)}`);
  assert.match(await kvKey("x".repeat(MAX_KV_KEY_BYTES - 2)), /^um-sha256:[0-9a-f]{64}$/);
  assert.match(await kvKey("é".repeat(300)), /^um-sha256:/, "bytes, not characters, are counted");
});

test("a KV bulk file stays under its size in bytes, counted in UTF-8, as full as it can be", async () => {
  const dir = mkdtempSync(join(tmpdir(), "um-kv-"));
  try {
    const bytes = 2_000;
    const writer = new KvWriter(dir, { pairs: KV_PAIRS_PER_FILE, bytes });
    const active = { status: "active", updatedAt: "2026-11-01T00:00:00.000Z", nextCheck: "PT10M" } as const;
    // Quotes double as the body becomes a JSON string, and "é" is two bytes: characters would undercount.
    const body = (i: number) => new TextEncoder().encode(`{"q":"${'\\"'.repeat(i % 50)}${"é".repeat(i % 70)}"}`);
    const pairs = 300;
    for (let i = 0; i < pairs; i++) await writer.manifest(`urn:kv:${i}`, body(i), `W/"sha256-${i}"`, active);
    assert.equal(writer.finish(), kvFiles(dir).length);
    const sizes = kvFiles(dir).map((f) => statSync(join(dir, f)).size);
    const parsed = kvFiles(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { key: string }[]);
    for (const size of sizes) assert.ok(size < bytes, `${size} bytes`);
    assert.deepEqual(
      parsed.flat().map((p) => p.key),
      Array.from({ length: pairs }, (_, i) => `um:urn:kv:${i}`),
    );
    // Full: the next file's first pair would not have fitted in the one before.
    for (let f = 0; f + 1 < parsed.length; f++) {
      const next = Buffer.byteLength(JSON.stringify(parsed[f + 1]![0]));
      assert.ok(sizes[f]! + ",\n".length + next >= bytes, `file ${f + 1} could hold one more`);
    }
    // Cloudflare's limits, as its bulk write documents them.
    assert.deepEqual([KV_PAIRS_PER_FILE, KV_FILE_BYTES], [10_000, 100_000_000]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("KV bulk files go 1,000 to a folder, and a pair too large for a file gets one of its own", async () => {
  const dir = mkdtempSync(join(tmpdir(), "um-kv-"));
  try {
    const writer = new KvWriter(dir, { pairs: 1, bytes: KV_FILE_BYTES });
    for (let i = 0; i < 1_001; i++) await writer.redirect(`urn:kv:${i}`, "https://elsewhere.example/");
    assert.equal(writer.finish(), 1_001);
    assert.deepEqual(readdirSync(dir).sort(), ["kv-0001", "kv-0002"]);
    assert.equal(readdirSync(join(dir, "kv-0001")).length, 1_000);
    assert.deepEqual(readdirSync(join(dir, "kv-0002")), ["kv-0001001.json"]);

    const tight = mkdtempSync(join(tmpdir(), "um-kv-"));
    const small = new KvWriter(tight, { pairs: KV_PAIRS_PER_FILE, bytes: 10 });
    await small.redirect("urn:kv:a", "https://elsewhere.example/");
    await small.redirect("urn:kv:b", "https://elsewhere.example/");
    assert.equal(small.finish(), 2);
    assert.deepEqual(
      kvFiles(tight).map((f) => (JSON.parse(readFileSync(join(tight, f), "utf8")) as unknown[]).length),
      [1, 1],
    );
    rmSync(tight, { recursive: true, force: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
