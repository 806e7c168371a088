/**
 * The route table (edge/route-table.ts, edge/routed-documents.ts, scripts/plan/routes.ts): the build turns the routes
 * its plan modules make into stored files and shards by a hash of the path; the edge reads one shard per lookup, and
 * serves any row, whatever its kind, through one path, 304 included; a shard or row it cannot read, or a document
 * that is not the one built, is a logged 500 for that path, never a crash; a path with no row is a 404 under the
 * resolver's own prefixes and a UMID path elsewhere, and a UMID's lookup reads no shard.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utf8 } from "../../core/base64url.ts";
import { DID_DOCUMENT, RESOLVERS_DOCUMENT, STATUS_LIST } from "../../core/served-kinds.ts";
import { LOG_PREFIX, RESOLVERS_PATH, STATUS_LIST_PREFIX, statusPath, umidPath } from "../../core/umid-path.ts";
import { etagOf } from "../../edge/etag.ts";
import { answer } from "../../edge/handler.ts";
import { type KvNamespace, KvRecords } from "../../edge/kv-records.ts";
import type { RecordStore } from "../../edge/records.ts";
import { ROUTES_FORMAT, routeShardPath } from "../../edge/route-table.ts";
import { StaticRecords } from "../../edge/static-records.ts";
import type { OutputFile } from "../../scripts/plan/output-file.ts";
import { storedLogFile } from "../../scripts/log/log-output.ts";
import { type Route, routeFiles } from "../../scripts/plan/routes.ts";

const LIST = `${STATUS_LIST_PREFIX}/00c0ffee00c0ffee`;
const LIST_BODY = '{"id":"list"}';
const routes: Route[] = [
  { path: LIST, bytes: utf8(LIST_BODY), served: STATUS_LIST },
  { path: RESOLVERS_PATH, bytes: utf8('{"peers":[]}'), served: RESOLVERS_DOCUMENT },
];

/** A Workers KV namespace holding `pairs`, as the edge reads one. */
function kvOf(pairs: ReadonlyMap<string, Uint8Array>): KvNamespace {
  return {
    getWithMetadata: async <M>(key: string) => {
      const bytes = pairs.get(key);
      return { value: bytes === undefined ? null : (new Uint8Array(bytes).buffer as ArrayBuffer), metadata: null as M };
    },
  };
}

/** A static store over `files`, counting each path read. */
function storeOf(files: readonly OutputFile[], changed: Record<string, Uint8Array | undefined> = {}) {
  const byPath = new Map<string, Uint8Array>(files.map((file) => [file.path, file.bytes]));
  for (const [path, bytes] of Object.entries(changed))
    if (bytes === undefined) byPath.delete(path);
    else byPath.set(path, bytes);
  const reads: string[] = [];
  const store = new StaticRecords().reading(async (path) => {
    reads.push(path);
    const bytes = byPath.get(path);
    return bytes === undefined ? undefined : (new Uint8Array(bytes) as Uint8Array<ArrayBuffer>);
  });
  return { store, reads };
}

/** GET `path` with console.error counted instead of printed. */
async function get(store: RecordStore, path: string, ifNoneMatch?: string) {
  let logged = 0;
  const { error } = console;
  console.error = () => logged++;
  try {
    const headers = new Headers(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch });
    const got = await answer({ method: "GET", url: `https://resolver.test${path}`, headers }, store);
    const body = got.body === null ? "" : new TextDecoder().decode(got.body);
    return { ...got, text: body, json: got.status >= 400 ? (JSON.parse(body) as unknown) : undefined, logged };
  } finally {
    console.error = error;
  }
}

const COMMON = [
  ["X-UM-Resolver-Contract", "manifest-resolver/v0.1"],
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"],
  ["Access-Control-Allow-Headers", "If-None-Match"],
  ["Access-Control-Expose-Headers", "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract, Link"],
  ["Access-Control-Max-Age", "7200"],
  ["X-Content-Type-Options", "nosniff"],
];

describe("the route table as the build writes it", () => {
  it("stores each document under its digest once, and writes only the shards that hold rows", () => {
    const files = routeFiles([
      ...routes,
      { path: "/.well-known/copy/did.json", bytes: utf8(LIST_BODY), served: STATUS_LIST },
    ]);
    const stored = files.filter((file) => file.path.startsWith("documents/"));
    assert.equal(stored.length, 2, "the same bytes at two paths are one file");
    for (const file of stored) assert.match(file.path, /^documents\/[0-9a-f]{64}$/);
    const shards = files.filter((file) => file.path.startsWith("routes/")).map((file) => file.path);
    const expected = [...new Set([LIST, RESOLVERS_PATH, "/.well-known/copy/did.json"].map(routeShardPath))].sort();
    assert.deepEqual(shards, expected);
    for (const path of shards) assert.match(path, /^routes\/[0-9a-f]{3}\.json$/);
    const shard = JSON.parse(new TextDecoder().decode(files.find((f) => f.path === routeShardPath(LIST))!.bytes));
    assert.equal(shard.format, ROUTES_FORMAT);
    assert.deepEqual(Object.keys(shard.routes[LIST]), ["stored", "contentType", "cacheControl", "etag"]);
    assert.deepEqual(routeFiles([...routes].reverse()), routeFiles(routes), "the same routes, the same bytes");
  });

  it("refuses a path the edge would not ask the table for, and two routes at one path", () => {
    for (const path of ["/one-segment", statusPath("urn:a"), "/.well-known/manifest-resolver/status"])
      assert.throws(() => routeFiles([{ path, bytes: utf8("x"), served: STATUS_LIST }]), /two segments/, path);
    assert.throws(() => routeFiles([routes[0]!, { ...routes[0]!, bytes: utf8("y") }]), /two routes serve/);
  });
});

describe("the route table at the edge", () => {
  it("serves a row with its media type, caching and ETag, reading one shard and the document once", async () => {
    const { store, reads } = storeOf(routeFiles(routes));
    const etag = await etagOf(utf8(LIST_BODY) as Uint8Array<ArrayBuffer>);
    const list = await get(store, LIST);
    assert.equal(list.status, 200);
    assert.deepEqual(list.headers, [
      ...COMMON,
      ["Cache-Control", "public, max-age=300"],
      ["Content-Type", "application/vc+ld+json"],
      ["Content-Length", String(LIST_BODY.length)],
      ["ETag", etag],
    ]);
    assert.equal(list.text, LIST_BODY);
    const again = await get(store, LIST, etag);
    assert.equal(again.status, 304);
    assert.deepEqual(again.headers, [
      ...COMMON,
      ["Cache-Control", "public, max-age=300"],
      ["Content-Type", "application/vc+ld+json"],
      ["ETag", etag],
    ]);
    assert.equal(again.body, null);
    assert.equal((await get(store, LIST, `"other", ${etag.slice(2)}`)).status, 304);
    assert.equal((await get(store, LIST, '"other"')).status, 200);
    assert.deepEqual(reads, [routeShardPath(LIST), (await storedOf(LIST)).stored]);
  });

  it("reads no shard for a UMID or its status but, once, the checkpoint's; a did.json with no row is a UMID path", async () => {
    const { store, reads } = storeOf(routeFiles(routes));
    await get(store, statusPath("urn:a"));
    await get(store, umidPath("urn:a"));
    await get(store, umidPath("urn:b"));
    // Whether the deploy serves a log (the Link of a manifest answer: edge/log-proof.ts), read once and kept.
    const checkpointShard = routeShardPath("/.well-known/manifest-resolver/log/checkpoint");
    assert.deepEqual(
      reads.filter((path) => !path.startsWith("index/")),
      [checkpointShard],
    );
    const bare = await get(store, "/did.json");
    assert.deepEqual([bare.status, bare.json], [404, { error: "not_found", umid: "did.json" }]);
    const deep = await get(store, "/users/bob/did.json");
    assert.deepEqual(
      [deep.status, deep.json],
      [400, { error: "bad_request", message: "unexpected extra path segments" }],
    );
    // A did:web on a resolver's base path is served at /did.json, the one routed path of one segment.
    const document = { path: "/did.json", bytes: utf8('{"id":"did:web:r.example:base"}'), served: DID_DOCUMENT };
    const based = await get(storeOf(routeFiles([document])).store, "/did.json");
    assert.deepEqual([based.status, based.text], [200, '{"id":"did:web:r.example:base"}']);
  });

  it("answers 404 with the path under the resolver's own prefixes when no row is there", async () => {
    const { store } = storeOf(routeFiles([]));
    for (const path of [
      `${STATUS_LIST_PREFIX}/ffff`,
      RESOLVERS_PATH,
      "/.well-known/manifest-resolver/log/checkpoint",
    ]) {
      const got = await get(store, path);
      assert.deepEqual([got.status, got.json, got.logged], [404, { error: "not_found", path }, 0], path);
    }
  });

  it("serves a kind the edge has never heard of: a row is all it takes", async () => {
    const kind = { contentType: "application/example+json", cacheControl: "public, max-age=42" };
    const path = "/.well-known/example/thing";
    const files = routeFiles([{ path, bytes: utf8('{"example":true}'), served: kind }]);
    const kvPairs = new Map(files.map((file) => [file.path, file.bytes]));
    const kv = kvOf(kvPairs);
    for (const store of [storeOf(files).store, new KvRecords().reading(kv)]) {
      const got = await get(store, path);
      assert.equal(got.status, 200);
      assert.equal(got.text, '{"example":true}');
      assert.deepEqual(
        got.headers.filter(([name]) => name === "Content-Type" || name === "Cache-Control"),
        [
          ["Cache-Control", "public, max-age=42"],
          ["Content-Type", "application/example+json"],
        ],
      );
    }
  });

  it("serves a log's checkpoint whole from a Workers KV namespace holding pairs of two builds", async () => {
    // KV pairs are written one key at a time and reach each location apart: for a while a Worker reads one build's
    // shard and the other's documents, and keeps the shard it read. The checkpoint's bytes change with each build.
    const path = `${LOG_PREFIX}/checkpoint`;
    const checkpoint = (text: string) => routeFiles([{ path, bytes: utf8(text), ...storedLogFile("checkpoint") }]);
    const [before, after] = [checkpoint("origin\n1\nroot-1\n"), checkpoint("origin\n2\nroot-2\n")];
    const shard = routeShardPath(path);
    const kvPairs = new Map([...before, ...after].map((file) => [file.path, file.bytes]));
    kvPairs.set(shard, before.find((file) => file.path === shard)!.bytes);
    const kv = kvOf(kvPairs);
    const got = await get(new KvRecords().reading(kv), path);
    assert.deepEqual([got.status, got.text], [200, "origin\n1\nroot-1\n"]);
  });

  it("answers a shard of another format, or no shard at all, with a logged 500 for the path", async () => {
    const files = routeFiles(routes);
    const shard = routeShardPath(LIST);
    for (const bytes of [
      utf8(JSON.stringify({ format: ROUTES_FORMAT + 1, routes: {} })),
      utf8("{not json"),
      utf8(JSON.stringify({ format: ROUTES_FORMAT, routes: [] })),
      new Uint8Array([0xff, 0xfe]),
    ]) {
      const { store } = storeOf(files, { [shard]: bytes });
      const got = await get(store, LIST);
      assert.deepEqual([got.status, got.json, got.logged], [500, { error: "corrupt_record", path: LIST }, 1]);
    }
  });

  it("answers a row of the wrong shape with a logged 500 for its path only", async () => {
    const row = await storedOf(LIST);
    const files = routeFiles(routes);
    for (const bad of [
      null,
      "documents/x",
      { ...row, etag: '"not-the-build-s"' },
      { ...row, stored: "../resolver.json" },
      { ...row, stored: "/etc/passwd" },
      { ...row, stored: 5 },
      { ...row, contentType: "text/html\r\nSet-Cookie: a=b" },
      { ...row, cacheControl: "" },
      { ...row, cacheControl: "caf\u00e9" },
    ]) {
      const shard = routeShardPath(LIST);
      const text = JSON.stringify({ format: ROUTES_FORMAT, routes: { [LIST]: bad, [RESOLVERS_PATH]: row } });
      const { store } = storeOf(files, { [shard]: utf8(text) });
      const got = await get(store, LIST);
      assert.deepEqual(
        [got.status, got.json, got.logged],
        [500, { error: "corrupt_record", path: LIST }, 1],
        JSON.stringify(bad),
      );
    }
  });

  it("answers a document missing or not the one built with a logged 500, and keeps nothing of it", async () => {
    const files = routeFiles(routes);
    const { stored } = await storedOf(LIST);
    for (const bytes of [undefined, utf8(`${LIST_BODY} `)]) {
      const { store } = storeOf(files, { [stored]: bytes });
      const got = await get(store, LIST);
      assert.deepEqual([got.status, got.json, got.logged], [500, { error: "corrupt_record", path: LIST }, 1]);
    }
  });
});

/** The row the table holds for `path`. */
async function storedOf(path: string): Promise<{ stored: string; etag: string }> {
  const shard = routeFiles(routes).find((file) => file.path === routeShardPath(path))!;
  return JSON.parse(new TextDecoder().decode(shard.bytes)).routes[path];
}
