/**
 * Workers KV records the Worker reads (edge/kv-records.ts). A record loaded before
 * statuses existed (a Worker deployed before its new build's KV files were loaded) has
 * no status: its manifest (or 410) is still answered, and its status document is a
 * logged 500, never a crash of the handler.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { handleRequest } from "../../edge/handler.ts";
import { KvRecords, type KvNamespace } from "../../edge/kv-records.ts";
import { etagOf } from "../../edge/etag.ts";

const body = new TextEncoder().encode('{"@id":"urn:a"}') as Uint8Array<ArrayBuffer>;

function namespace(pairs: Record<string, { value: Uint8Array; metadata: unknown }>): KvNamespace {
  return {
    async getWithMetadata<M>(key: string) {
      const pair = pairs[key];
      return pair === undefined
        ? { value: null, metadata: null }
        : { value: pair.value.slice().buffer as ArrayBuffer, metadata: pair.metadata as M };
    },
  };
}

test(
  "a KV record without a status answers its status with 500 corrupt_record, and " + "its manifest or 410 as before",
  async () => {
    const etag = await etagOf(body);
    const kv = namespace({
      "um:urn:a": { value: body, metadata: { etag } },
      "um:urn:gone": { value: new Uint8Array(), metadata: { revoked: true } },
      "um:urn:ok": {
        value: body,
        metadata: { etag, status: { status: "suspended", updatedAt: "2026-02-01T00:00:00.000Z", nextCheck: "PT10M" } },
      },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const ask = (path: string) =>
        handleRequest(
          { method: "GET", url: `https://r.example${path}`, headers: new Headers() },
          new KvRecords().reading(kv),
        );
      for (const umid of ["urn:a", "urn:gone"]) {
        const status = await ask(`/.well-known/manifest-resolver/status/${encodeURIComponent(umid)}`);
        assert.equal(status.status, 500);
        assert.deepEqual(await status.json(), { error: "corrupt_record", umid });
      }
      assert.equal(errors.length, 2, "each is logged");
      const manifest = await ask("/urn%3Aa");
      assert.equal(manifest.status, 200);
      assert.equal(manifest.headers.get("ETag"), etag);
      assert.equal((await ask("/urn%3Agone")).status, 410);
      const ok = await ask("/.well-known/manifest-resolver/status/urn%3Aok");
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { status: string }).status, "suspended");
    } finally {
      console.error = original;
    }
  },
);
