import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { kvKey, MAX_KV_KEY_BYTES } from "../../edge/records.ts";
import { KV_PAIRS_PER_FILE, KvWriter } from "../../scripts/write/kv-writer.ts";

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
    assert.deepEqual(readdirSync(dir).sort(), ["kv-00001.json", "kv-00002.json"]);
    const [first, second] = ["kv-00001.json", "kv-00002.json"].map((f) =>
      JSON.parse(readFileSync(join(dir, f), "utf8")),
    );
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
