/**
 * The edge's readers of a build's output under mutated input (issue 37, defect 10): the record index's shards, the
 * bodies, the route table's shards and the documents they route (a did:web document, the discovery document, the
 * log's checkpoint) as static assets, and the same
 * as Workers KV pairs (values and metadata). Whatever one of them holds, the handler answers every request with an
 * HTTP status of the contract, an error a JSON body naming its `error` (a damaged record is `corrupt_record`, 500);
 * it never throws.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { utf8 } from "../../core/base64url.ts";
import { LOG_PREFIX, RESOLVERS_PATH, statusPath, umidPath } from "../../core/umid-path.ts";
import { etagOf } from "../../edge/etag.ts";
import { handleRequest } from "../../edge/handler.ts";
import { type KvNamespace, KvRecords } from "../../edge/kv-records.ts";
import {
  INDEX_FORMAT,
  kvKey,
  type RecordEntry,
  type RecordStore,
  shardPath,
  type StatusEntry,
} from "../../edge/records.ts";
import { statusDocumentBytes } from "../../edge/responses.ts";
import { StaticRecords } from "../../edge/static-records.ts";
import { DID_DOCUMENT, LOG_CHECKPOINT, RESOLVERS_DOCUMENT } from "../../core/served-kinds.ts";
import { routeFiles } from "../../scripts/plan/routes.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { documentText, excerpt, holds, mutatedBytes } from "../support/properties.ts";

const ORIGIN = "https://fixture.example";
const ACTIVE = "urn:property:active";
const MOVED = "urn:property:moved";
const GONE = "urn:property:gone";
const statusOf = (status: StatusEntry["status"]): StatusEntry => ({
  status,
  updatedAt: "2026-01-01T00:00:00.000Z",
  nextCheck: "2026-01-02T00:00:00.000Z",
  ...(status === "revoked" && { reason: "withdrawn" }),
});
const withEtag = async (umid: string, status: StatusEntry) => ({
  ...status,
  etag: await etagOf(statusDocumentBytes(umid, status)),
});
const bytes = (text: string) => utf8(text) as Uint8Array<ArrayBuffer>;

const body = bytes(JSON.stringify(signed(manifestFor(ACTIVE), newKey())));
const bodyEtag = await etagOf(body);
const BODY_FILE = "m/000/active.json";
const didDocument = bytes(JSON.stringify({ id: "did:web:fixture.example" }));
const resolvers = bytes(JSON.stringify({ resolver: "did:web:fixture.example", peers: [] }));
const checkpoint = bytes("fixture.example/log\n1\nAAAA\n\n— fixture.example/log AAAA\n");
/** The route table's files: its shards, and the documents they route. */
const routed = routeFiles([
  { path: "/.well-known/did.json", bytes: didDocument, served: DID_DOCUMENT },
  { path: RESOLVERS_PATH, bytes: resolvers, served: RESOLVERS_DOCUMENT },
  { path: `${LOG_PREFIX}/checkpoint`, bytes: checkpoint, stored: "log/checkpoint", served: LOG_CHECKPOINT },
]).map(({ path, bytes }) => [path, new Uint8Array(bytes)] as const);

/** What every run asks, with and without a validator. */
const PATHS = [
  ...[ACTIVE, MOVED, GONE, "urn:property:unknown"].flatMap((umid) => [umidPath(umid), statusPath(umid)]),
  "/.well-known/did.json",
  RESOLVERS_PATH,
  `${LOG_PREFIX}/checkpoint`,
  "/health",
];
const STATUSES = [200, 304, 307, 400, 404, 410, 500];

/** Every request of PATHS answered as the contract allows. */
async function answersAll(store: RecordStore, damage: string): Promise<void> {
  const { error } = console;
  console.error = () => {};
  try {
    for (const path of PATHS)
      for (const validator of [null, "*", bodyEtag]) {
        const headers = new Headers(validator === null ? {} : { "If-None-Match": validator });
        const response = await handleRequest({ method: "GET", url: ORIGIN + path, headers }, store);
        assert.ok(STATUSES.includes(response.status), `${path} answered ${response.status} when ${damage}`);
        if (response.status >= 400)
          assert.equal(
            typeof ((await response.json()) as { error?: unknown }).error,
            "string",
            `${path}'s ${response.status} when ${damage}`,
          );
      }
  } finally {
    console.error = error;
  }
}

/** A file damaged: its JSON mutated as a document, or its bytes. */
function damaged(files: ReadonlyMap<string, Uint8Array>): fc.Arbitrary<[string, Uint8Array<ArrayBuffer>]> {
  return fc.constantFrom(...files.keys()).chain((path) => {
    const original = files.get(path)!;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(original).toString());
    } catch {
      parsed = undefined;
    }
    const variants =
      parsed === undefined
        ? mutatedBytes(original)
        : fc.oneof(
            documentText(parsed).map((text) => utf8(text)),
            mutatedBytes(original),
          );
    return variants.map((d) => [path, new Uint8Array(d)] as [string, Uint8Array<ArrayBuffer>]);
  });
}

describe("properties: the edge's readers of a build's output", () => {
  it("static assets: a damaged shard, body, table or log file is answered, never thrown", async () => {
    const records: Record<string, Record<string, RecordEntry>> = {};
    const put = (umid: string, entry: RecordEntry) => {
      records[shardPath(umid)] = { ...records[shardPath(umid)], [umid]: entry };
    };
    put(ACTIVE, { file: BODY_FILE, etag: bodyEtag, status: await withEtag(ACTIVE, statusOf("active")) });
    put(MOVED, { redirect: "https://elsewhere.example/moved" });
    put(GONE, { revoked: true, status: await withEtag(GONE, statusOf("revoked")) });
    const files = new Map<string, Uint8Array<ArrayBuffer>>([
      ...Object.entries(records).map(
        ([path, shard]) => [path, bytes(JSON.stringify({ format: INDEX_FORMAT, records: shard }))] as const,
      ),
      [BODY_FILE, body],
      ...routed,
    ]);
    const storeOf = (output: ReadonlyMap<string, Uint8Array<ArrayBuffer>>) =>
      new StaticRecords().reading(async (path) => output.get(path));
    const honest = storeOf(files);
    const get = (path: string) => handleRequest({ method: "GET", url: ORIGIN + path, headers: new Headers() }, honest);
    assert.deepEqual(
      await Promise.all(
        [umidPath(ACTIVE), umidPath(MOVED), umidPath(GONE), statusPath(ACTIVE)].map(async (p) => (await get(p)).status),
      ),
      [200, 307, 410, 200],
    );
    await holds(
      "static output",
      fc.asyncProperty(damaged(files), async ([path, d]) => {
        await answersAll(storeOf(new Map([...files, [path, d]])), `${path} holds ${excerpt(d)}`);
      }),
      60,
    );
  });

  it("Workers KV: a damaged value or metadata is answered, never thrown", async () => {
    type Pair = { value: Uint8Array<ArrayBuffer>; metadata: unknown };
    const pairs = new Map<string, Pair>([
      [await kvKey(ACTIVE), { value: body, metadata: { etag: bodyEtag, status: statusOf("active") } }],
      [await kvKey(MOVED), { value: bytes("https://elsewhere.example/moved"), metadata: { redirect: true } }],
      [await kvKey(GONE), { value: new Uint8Array(0), metadata: { revoked: true, status: statusOf("revoked") } }],
      ...routed.map(([key, value]) => [key, { value, metadata: null }] as const),
    ]);
    const kvOf = (stored: ReadonlyMap<string, Pair>): KvNamespace => ({
      getWithMetadata: async <M>(key: string) => {
        const pair = stored.get(key);
        return {
          value: pair === undefined ? null : (pair.value.slice().buffer as ArrayBuffer),
          metadata: (pair?.metadata ?? null) as M | null,
        };
      },
    });
    const honest = new KvRecords().reading(kvOf(pairs));
    const get = (path: string) => handleRequest({ method: "GET", url: ORIGIN + path, headers: new Headers() }, honest);
    assert.deepEqual(
      await Promise.all(
        [umidPath(ACTIVE), umidPath(MOVED), umidPath(GONE), statusPath(GONE)].map(async (p) => (await get(p)).status),
      ),
      [200, 307, 410, 200],
    );
    const parsedOr = (text: string): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    };
    const damage = fc.constantFrom(...pairs.keys()).chain((key) => {
      const pair = pairs.get(key)!;
      const metadata = documentText(pair.metadata).map((text) => ({ ...pair, metadata: text, parse: true }));
      const value = mutatedBytes(pair.value).map((v) => ({ ...pair, value: new Uint8Array(v), parse: false }));
      return fc.oneof(metadata, value).map((d) => [key, d] as const);
    });
    await holds(
      "Workers KV",
      fc.asyncProperty(damage, async ([key, d]) => {
        // Metadata is generated as text and parsed here: fast-check stringifies a counterexample, which a value
        // nested 20,000 deep overflows.
        const pair = { value: d.value, metadata: d.parse ? parsedOr(d.metadata as string) : d.metadata };
        const store = new KvRecords().reading(kvOf(new Map([...pairs, [key, pair]])));
        await answersAll(store, `${key} holds ${excerpt(d.parse ? (d.metadata as string) : d.value)}`);
      }),
      100,
    );
  });
});
