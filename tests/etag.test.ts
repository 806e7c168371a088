/**
 * Every ETag the build computes covers every byte of the body it is served with (issue 21):
 * a client revalidating with an old ETag must get the new body, never a 304 that keeps the
 * old one. The whole output of a build, static and Workers KV, is walked through the real
 * handler: every answer with an ETag is checked against a digest of its body computed here,
 * and every ETag written anywhere in the output must be one the handler served with such a
 * body. Then a status reason changes, its date kept: the old ETag no longer matches.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { after, describe, it } from "node:test";
import { statusPath, umidPath } from "../core/umid-path.ts";
import { answer } from "../edge/handler.ts";
import { KvRecords, type KvNamespace } from "../edge/kv-records.ts";
import type { RecordStore } from "../edge/records.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { directoryReader } from "../edge/adapters/node.ts";
import { etagOf } from "./contract/cases.ts";
import { FIXTURE_RESOLVER_URL, makeFixture } from "./support/fixture-content.ts";
import { readRecords } from "./support/index.ts";
import { kvPairs } from "./support/kv-files.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";

const fixture = makeFixture();
after(() => fixture.cleanup());

/**
 * The fixture's content built afresh into `name`, `name`-kv and `name`-lookup beside its output (which it corrupted):
 * its stores.
 */
async function built(name: string): Promise<{ dist: string; kv: string; stores: [string, RecordStore][] }> {
  const dist = join(fixture.root, name);
  const kv = `${dist}-kv`;
  const result = await runCliInProcess(
    ["build", "--content", fixture.content, "--out", dist, "--kv-out", kv, "--lookup-out", `${dist}-lookup`],
    fixture.root,
    { UM_RESOLVER_URL: FIXTURE_RESOLVER_URL },
  );
  assert.equal(result.status, 0, result.stdout + result.stderr);
  return {
    dist,
    kv,
    stores: [
      ["static", new StaticRecords().reading(directoryReader(dist))],
      ["Workers KV", new KvRecords().reading(kvNamespace(kv))],
    ],
  };
}

/** The Workers KV namespace the bulk files in `dir` fill, as `wrangler kv bulk put` loads them. */
function kvNamespace(dir: string): KvNamespace {
  const pairs = new Map(kvPairs(dir).map((pair) => [pair.key, pair]));
  return {
    async getWithMetadata<M>(key: string) {
      const pair = pairs.get(key);
      if (pair === undefined) return { value: null, metadata: null };
      const bytes = pair.base64 ? Buffer.from(pair.value, "base64") : new TextEncoder().encode(pair.value);
      return { value: new Uint8Array(bytes).buffer, metadata: (pair.metadata ?? null) as M };
    },
  };
}

interface Served {
  status: number;
  etag: string | undefined;
  body: Buffer;
}

async function ask(records: RecordStore, method: string, path: string, ifNoneMatch?: string): Promise<Served> {
  const headers = new Headers(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch });
  const got = await answer({ method, url: `https://resolver.test${path}`, headers }, records);
  const etag = got.headers.find(([name]) => name === "ETag")?.[1];
  return { status: got.status, etag, body: Buffer.from(got.body ?? new Uint8Array()) };
}

/**
 * Every string shaped like one of our ETags in the JSON files under `dir` (all of the build's output is JSON but the
 * documents the route table routes, the transparency log's files among them, whose ETags are their rows' in the table:
 * edge/route-table.ts), with the file it is in.
 */
function etagsWritten(dir: string): [string, string][] {
  const found: [string, string][] = [];
  const collect = (value: unknown, file: string): void => {
    if (typeof value === "string" && /^W\/"sha256-[\w-]{43}"$/.test(value)) found.push([value, file]);
    else if (typeof value === "object" && value !== null)
      for (const member of Object.values(value)) collect(member, file);
  };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    if (relative(dir, path).startsWith(`log${sep}`) || relative(dir, path).startsWith(`documents${sep}`)) continue;
    collect(JSON.parse(readFileSync(path, "utf8")), relative(dir, path));
  }
  return found;
}

// Every build before the first suite: node:test runs a suite as soon as it is declared.
const output = await built("walked");
const records = readRecords(output.dist);
// The same content with two status reasons changed, their dates kept.
const routesFile = join(fixture.content, "_routes.json");
const routes = readFileSync(routesFile, "utf8");
writeFileSync(
  routesFile,
  routes
    .replace('"reason": "under review"', '"reason": "under review: key audit"')
    .replaceAll('"reason": "test"', '"reason": "key compromised"'),
);
const reasonsChanged = await built("reasons-changed");
writeFileSync(routesFile, routes);

describe("every ETag covers every byte of its body", () => {
  for (const [store, reading] of output.stores) {
    it(
      `${store}: every answer with an ETag, for every UMID and endpoint, did:web document, log file, status list ` +
        "and discovery document, " +
        "GET and HEAD, is the digest of its body, and revalidates to 304",
      async () => {
        const served = new Set<string>();
        const paths = Object.keys(records).flatMap((umid) => [
          umidPath(umid),
          umidPath(umid, "b64u"),
          statusPath(umid),
          statusPath(umid, "b64u"),
        ]);
        const logPaths = [...fixture.log.files.keys(), `latest/${fixture.log.size}/0`].map(
          (path) => `/.well-known/manifest-resolver/log/${path}`,
        );
        const wellKnown = [fixture.statusList.path, "/.well-known/um-resolvers"];
        for (const path of [...paths, ...fixture.didDocuments.keys(), ...logPaths, ...wellKnown]) {
          const got = await ask(reading, "GET", path);
          const head = await ask(reading, "HEAD", path);
          assert.equal(head.etag, got.etag, `HEAD ${path}`);
          if (got.etag === undefined) continue;
          assert.equal(
            got.etag,
            etagOf(got.body),
            `GET ${path} answered ${got.status} with ETag ${got.etag}, not that of its body: ${got.body}`,
          );
          served.add(got.etag);
          const again = await ask(reading, "GET", path, got.etag);
          assert.deepEqual([again.status, again.etag], [304, got.etag], `GET ${path} with If-None-Match: its ETag`);
        }
        // One ETag for each manifest and one for each status document, of a published or revoked UMID, and one for
        // each did:web document, log file, status list and discovery document: none was missed.
        const expected = Object.values(records).reduce(
          (n, record) => n + (record.file !== undefined ? 2 : record.revoked ? 1 : 0),
          fixture.didDocuments.size + logPaths.length + wellKnown.length,
        );
        assert.equal(served.size, expected);
        const written = etagsWritten(store === "static" ? output.dist : output.kv);
        assert.ok(written.length > 0);
        for (const [etag, file] of written)
          assert.ok(served.has(etag), `${file} holds ${etag}, which no answer was served with`);
      },
    );
  }
});

describe("a status reason changed, its date kept, is a new status document", () => {
  for (const [i, [store, reading]] of reasonsChanged.stores.entries()) {
    it(`${store}: the old ETag of a suspended and of a revoked UMID answers 200 with the new reason, not 304`, async () => {
      const [, old] = output.stores[i]!;
      for (const [umid, reason] of [
        ["umid with spaces", "under review: key audit"],
        ["urn:revoked:gone", "key compromised"],
      ] as const) {
        const was = await ask(old, "GET", statusPath(umid));
        assert.equal(was.status, 200);
        const got = await ask(reading, "GET", statusPath(umid), was.etag);
        assert.equal(got.status, 200, `${umid}: revalidated with ${was.etag}`);
        assert.equal((JSON.parse(got.body.toString()) as { reason: string }).reason, reason);
        assert.notEqual(got.etag, was.etag);
        assert.equal((await ask(reading, "GET", statusPath(umid), got.etag)).status, 304);
      }
    });
  }
});
