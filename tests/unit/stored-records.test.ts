/**
 * Records the edge reads that the build did not write so (issue 37, found by tests/properties/edge-records.test.ts):
 * an index entry or a KV pair the handler cannot serve, a status with no RFC 3339 `updatedAt` or no ETag of the build's
 * form, or a redirect whose location is no header value, is a logged 500 `corrupt_record`, as a body that does not match its ETag is; before,
 * the handler threw (RangeError, TypeError) and the host answered what it answers a crash.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { handleRequest } from "../../edge/handler.ts";
import { type KvNamespace, KvRecords } from "../../edge/kv-records.ts";
import { INDEX_FORMAT, kvKey, type RecordStore, shardPath } from "../../edge/records.ts";
import { StaticRecords } from "../../edge/static-records.ts";
import { etagOf } from "../../edge/etag.ts";
import { umidPath, statusPath } from "../../core/umid-path.ts";

const UMID = "urn:stored:a";
const STATUS = {
  status: "active",
  updatedAt: "2026-01-01T00:00:00.000Z",
  nextCheck: "PT10M",
  etag: `W/"sha256-${"A".repeat(43)}"`,
};

/** The answers to GET `paths`, with console.error silenced; each logged line is counted. */
async function answers(store: RecordStore, paths: string[]): Promise<{ statuses: unknown[]; logged: number }> {
  let logged = 0;
  const { error } = console;
  console.error = () => logged++;
  try {
    const statuses = [];
    for (const path of paths) {
      const response = await handleRequest(
        { method: "GET", url: `https://r.example${path}`, headers: new Headers() },
        store,
      );
      statuses.push([response.status, response.status === 500 ? await response.json() : undefined]);
    }
    return { statuses, logged };
  } finally {
    console.error = error;
  }
}

const corrupt = [500, { error: "corrupt_record", umid: UMID }];

function staticStore(entry: unknown): RecordStore {
  const shard = new TextEncoder().encode(JSON.stringify({ format: INDEX_FORMAT, records: { [UMID]: entry } }));
  return new StaticRecords().reading(async (path) =>
    path === shardPath(UMID) ? (shard as Uint8Array<ArrayBuffer>) : undefined,
  );
}

async function kvStore(value: string, metadata: unknown): Promise<RecordStore> {
  const key = await kvKey(UMID);
  const kv: KvNamespace = {
    getWithMetadata: async <M>(asked: string) =>
      asked === key
        ? { value: new TextEncoder().encode(value).buffer as ArrayBuffer, metadata: metadata as M }
        : { value: null, metadata: null },
  };
  return new KvRecords().reading(kv);
}

describe("stored records the build did not write so", () => {
  it("an index entry whose status has no date-time is corrupt, at both endpoints", async () => {
    for (const updatedAt of [0, "yesterday"]) {
      const store = staticStore({ revoked: true, status: { ...STATUS, updatedAt } });
      assert.deepEqual(await answers(store, [umidPath(UMID), statusPath(UMID)]), {
        statuses: [corrupt, corrupt],
        logged: 2,
      });
    }
  });

  it("an index entry whose status ETag is not one the build writes is corrupt", async () => {
    // A character past Latin-1 made the host's Response throw on the status document's ETag header.
    for (const etag of ["\u0100", '"s"', "", 5]) {
      const store = staticStore({ revoked: true, status: { ...STATUS, etag } });
      assert.deepEqual((await answers(store, [statusPath(UMID)])).statuses, [corrupt], JSON.stringify(etag));
    }
  });

  it("an index entry of no kind the build writes is corrupt", async () => {
    for (const entry of [null, 5, { file: 5, etag: '"e"', status: STATUS }, { revoked: "yes", status: STATUS }])
      assert.deepEqual(
        (await answers(staticStore(entry), [umidPath(UMID)])).statuses,
        [corrupt],
        JSON.stringify(entry),
      );
  });

  it("a redirect whose location is no header value is corrupt", async () => {
    for (const location of [
      "",
      "\u0000https://elsewhere.example/",
      "https://élsewhere.example/",
      "https://a.example/\n",
      5,
    ]) {
      assert.deepEqual((await answers(staticStore({ redirect: location }), [umidPath(UMID)])).statuses, [corrupt]);
      if (typeof location === "string")
        assert.deepEqual(
          (await answers(await kvStore(location, { redirect: true }), [umidPath(UMID)])).statuses,
          [corrupt],
          JSON.stringify(location),
        );
    }
    const fine = await answers(await kvStore("https://elsewhere.example/x", { redirect: true }), [umidPath(UMID)]);
    assert.deepEqual(fine.statuses, [[307, undefined]]);
  });

  it("a body kept for one index entry is not served for another that names it with another ETag", async () => {
    const body = new TextEncoder().encode('{"@id":"urn:stored:a"}') as Uint8Array<ArrayBuffer>;
    const etag = await etagOf(body);
    const other = "urn:stored:b";
    const shards = new Map<string, Record<string, unknown>>();
    for (const [umid, entryEtag] of [
      [UMID, etag],
      [other, '"not-its-etag"'],
    ] as const)
      shards.set(shardPath(umid), {
        ...shards.get(shardPath(umid)),
        [umid]: { file: "m.json", etag: entryEtag, status: STATUS },
      });
    const files = new Map<string, Uint8Array<ArrayBuffer>>([["m.json", body]]);
    for (const [path, records] of shards)
      files.set(
        path,
        new TextEncoder().encode(JSON.stringify({ format: INDEX_FORMAT, records })) as Uint8Array<ArrayBuffer>,
      );
    const store = new StaticRecords().reading(async (path) => files.get(path));
    const { statuses } = await answers(store, [umidPath(UMID), umidPath(other)]);
    assert.deepEqual(statuses, [
      [200, undefined],
      [500, { error: "corrupt_record", umid: other }],
    ]);
  });
});
