/**
 * The output every host accepts, past the size that broke it (issue 23): 55,000 manifests, generated here and signed
 * with the test key, built by the real CLI. One folder held every body, and Netlify fails a deploy with over 54,000
 * files in one folder; now no folder of any output (dist/, dist-kv/, dist-lookup/) holds over 10,000 entries, and a
 * sample of UMIDs, case twins and a long one among them, resolves through the real handler, static and Workers KV,
 * to byte-exact bodies.
 */
import assert from "node:assert/strict";
import { createPrivateKey } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { umidPath } from "../../core/umid-path.ts";
import { directoryReader } from "../../edge/adapters/node.ts";
import { answer } from "../../edge/handler.ts";
import { KvRecords } from "../../edge/kv-records.ts";
import type { RecordStore } from "../../edge/records.ts";
import { shardOf } from "../../edge/shard-file.ts";
import { StaticRecords } from "../../edge/static-records.ts";
import { caseTwins, manifestFor, pinning, signed } from "../support/fixture-content.ts";
import { readRecords } from "../support/index.ts";
import { kvPairs } from "../support/kv-files.ts";
import { ROOT } from "../support/paths.ts";
import { runCli } from "../support/processes.ts";

/** Past Netlify's 54,000 files in one folder, where a build of every body in one folder failed to deploy. */
const MANIFESTS = 55_000;
const MAX_FOLDER_ENTRIES = 10_000;

const key = createPrivateKey(readFileSync(join(ROOT, "tests/fixtures/sample-signing-key.TEST-ONLY.pem")));
const scratch = mkdtempSync(join(tmpdir(), "um-scale-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const [twinA, twinB] = caseTwins("together");
const long = `urn:scale:long:${"0123456789".repeat(12)}`;
const umids = [...Array.from({ length: MANIFESTS - 3 }, (_, i) => `urn:scale:${i}`), twinA, twinB, long];

/** UMID → the manifest written for it, signed. */
const manifests = new Map<string, Record<string, unknown>>();
const content = join(scratch, "content");
for (const [i, umid] of umids.entries()) {
  const manifest = signed(manifestFor(umid), key);
  manifests.set(umid, manifest);
  const folder = join(content, String(i % 100));
  if (i < 100) mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${i}.json`), JSON.stringify(manifest));
}
writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));

/** The most entries any folder under `dir` (itself included) holds, and which. */
function fullestFolder(dir: string): { folder: string; entries: number } {
  let fullest = { folder: ".", entries: readdirSync(dir).length };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(entry.parentPath, entry.name);
    const entries = readdirSync(folder).length;
    if (entries > fullest.entries) fullest = { folder: relative(dir, folder), entries };
  }
  return fullest;
}

async function bodyServed(records: RecordStore, umid: string): Promise<{ status: number; body: Buffer }> {
  const got = await answer(
    { method: "GET", url: `https://resolver.test${umidPath(umid)}`, headers: new Headers() },
    records,
  );
  return { status: got.status, body: Buffer.from(got.body ?? new Uint8Array()) };
}

describe(`a build of ${MANIFESTS.toLocaleString("en-US")} manifests`, async () => {
  const dist = join(scratch, "dist");
  const kv = join(scratch, "dist-kv");
  const lookup = join(scratch, "dist-lookup");
  const built = await runCli(
    ["build", "--content", content, "--out", dist, "--kv-out", kv, "--lookup-out", lookup, "--no-verification-cache"],
    scratch,
    { UM_RESOLVER_URL: "https://resolver.example" },
  );
  const records = readRecords(dist);

  it("builds", () => {
    assert.equal(built.status, 0, built.stdout + built.stderr);
    assert.equal(Object.keys(records).length, MANIFESTS);
  });

  it(`holds at most ${MAX_FOLDER_ENTRIES.toLocaleString("en-US")} entries in any folder of any output`, () => {
    for (const dir of [dist, kv, lookup]) {
      const fullest = fullestFolder(dir);
      assert.ok(
        fullest.entries <= MAX_FOLDER_ENTRIES,
        `${relative(scratch, dir)}/${fullest.folder}: ${fullest.entries}`,
      );
    }
    // Beside lookup.js, the chunks it loads and the modules bundled apart: all scripts.
    assert.deepEqual(
      readdirSync(lookup)
        .filter((name) => !name.endsWith(".js") || name === "lookup.js")
        .sort(),
      ["index.html", "lookup.js"],
    );
  });

  it("puts each body in the folder named like its index shard, or by digest for the case twins and the long UMID", () => {
    for (const umid of umids.slice(0, 1_000)) {
      assert.equal(records[umid]!.file, `m/${shardOf(umid)}/${encodeBase64url(utf8(umid))}`);
    }
    for (const umid of [twinA, twinB, long]) assert.match(records[umid]!.file!, /^h\/([0-9a-f]{3})\/\1[0-9a-f]{61}$/);
  });

  it("resolves a sample of UMIDs through the real handler to byte-exact bodies, from files and from Workers KV", async () => {
    const pairs = new Map(kvPairs(kv).map((pair) => [pair.key, pair]));
    // And the route table's 4,096 shards, empty ones too (scripts/plan/routes.ts, withEveryRouteShard).
    assert.equal(pairs.size, MANIFESTS + 4096);
    const stores: [string, RecordStore][] = [
      ["static", new StaticRecords().reading(directoryReader(dist))],
      [
        "Workers KV",
        new KvRecords().reading({
          async getWithMetadata<M>(k: string) {
            const pair = pairs.get(k);
            return pair === undefined
              ? { value: null, metadata: null }
              : { value: utf8(pair.value).buffer as ArrayBuffer, metadata: pair.metadata as M };
          },
        }),
      ],
    ];
    const sample = [...umids.filter((_, i) => i % 547 === 0), twinA, twinB, long];
    for (const [name, store] of stores) {
      for (const umid of sample) {
        const served = await bodyServed(store, umid);
        assert.equal(served.status, 200, `${name}: ${umid}`);
        assert.equal(served.body.toString(), canonicalize(manifests.get(umid)!), `${name}: ${umid}`);
      }
      assert.equal((await bodyServed(store, "urn:scale:unknown")).status, 404, name);
    }
  });
});
