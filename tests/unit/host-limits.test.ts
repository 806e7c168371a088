/**
 * The hosts count files, not manifests (scripts/plan/host-limits.ts): when the build
 * writes Workers KV files, what it warns of, and that its count is the count of files a
 * real build writes.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { INDEX_SHARDS, shardPath } from "../../edge/records.ts";
import {
  CLOUDFLARE_MAX_FILE_BYTES,
  hostWarnings,
  staticOutput,
  writesKv,
  type StaticOutput,
} from "../../scripts/plan/host-limits.ts";
import { manifestFor, newKey, pinning, signed } from "../support/fixture-content.ts";
import { runCli } from "../support/processes.ts";

const dirs = { out: "dist", kv: "dist-kv" };
const warnings = (output: StaticOutput, maxManifestBytes = 1_048_576) => hostWarnings(output, dirs, maxManifestBytes);
/** UMIDs shaped like the benchmark's (bench/corpus.ts). */
const umidOf = (i: number) => `urn:uuid:${String(i).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`;

test("20,000 manifests switch to Workers KV: their output holds over 20,000 files (the old rule, manifests > 20,000, did not switch)", () => {
  const output = staticOutput({ manifestFiles: 20_000, redirects: 0, revoked: 0 });
  assert.equal(output.files, 20_000 + INDEX_SHARDS + 1);
  assert.equal(writesKv(output), true);
  // What such a build really writes: a body each, a shard for each hash prefix met, resolver.json.
  const shards = new Set(Array.from({ length: 20_000 }, (_, i) => shardPath(umidOf(i)))).size;
  assert.ok(20_000 + shards + 1 > 20_000 && 20_000 + shards + 1 <= output.files, `${shards} shards`);
});

test("the switch is at Cloudflare's free-plan limit, counted in files: 15,903 manifests fit (20,000 files), 15,904 do not", () => {
  const fits = staticOutput({ manifestFiles: 15_903, redirects: 0, revoked: 0 });
  assert.equal(fits.files, 20_000);
  assert.equal(writesKv(fits), false);
  assert.equal(writesKv(staticOutput({ manifestFiles: 15_904, redirects: 0, revoked: 0 })), true);
});

test("a small content stays static, warns of nothing, and counts a shard per record while records are fewer than shards", () => {
  const output = staticOutput({ manifestFiles: 6, redirects: 1, revoked: 2 });
  assert.deepEqual(output, { files: 6 + 9 + 1, largestFolder: 9 });
  assert.equal(writesKv(output), false);
  assert.deepEqual(warnings(output), []);
  assert.deepEqual(staticOutput({ manifestFiles: 0, redirects: 0, revoked: 0 }), { files: 1, largestFolder: 0 });
});

test("Cloudflare: a warning from 90% of the free plan's 20,000 files, naming the count, the limit and the way out", () => {
  assert.deepEqual(warnings({ files: 17_999, largestFolder: 13_902 }), []);
  const [near, ...rest] = warnings({ files: 18_000, largestFolder: 13_903 });
  assert.deepEqual(rest, []);
  assert.match(
    near!,
    /^dist\/ will hold up to 18,000 files, 90% of Cloudflare's free-plan limit of 20,000 static files per Worker version; past it the build also writes Workers KV bulk files to dist-kv\//,
  );
  assert.match(warnings({ files: 20_000, largestFolder: 15_903 })[0]!, /100% of Cloudflare's free-plan limit/);
  const [over] = warnings({ files: 20_001, largestFolder: 15_904 });
  assert.match(
    over!,
    /^dist\/ will hold up to 20,001 files, over Cloudflare's free-plan limit of 20,000 static files per Worker version: on Cloudflare, deploy the Worker with Workers KV \(the bulk files in dist-kv\/; docs\/hosts\.md\), or use Workers Paid \(100,000 files\)$/,
  );
});

test("Cloudflare: past 90% of Workers Paid's 100,000 files, one warning, about that limit", () => {
  const near = warnings({ files: 90_000, largestFolder: 40_000 });
  assert.equal(near.length, 1);
  assert.match(
    near[0]!,
    /^dist\/ will hold up to 90,000 files, 90% of Cloudflare's Workers Paid limit of 100,000 static files per Worker version; past it, only the Worker with Workers KV/,
  );
  const over = warnings({ files: 100_001, largestFolder: 40_000 });
  assert.equal(over.length, 1);
  assert.match(
    over[0]!,
    /over Cloudflare's Workers Paid limit of 100,000 static files per Worker version: on Cloudflare, deploy the Worker with Workers KV/,
  );
});

test("Netlify: a warning from 90% of its 54,000 files in one folder, and that the deploy fails past it", () => {
  const netlify = (largestFolder: number) =>
    warnings({ files: 50_000, largestFolder }).filter((w) => w.includes("Netlify"));
  assert.deepEqual(netlify(48_599), []);
  assert.match(
    netlify(48_600)[0]!,
    /^one folder of dist\/ will hold up to 48,600 files, 90% of Netlify's limit of 54,000 files in one folder; past it Netlify fails the deploy/,
  );
  assert.match(netlify(54_000)[0]!, /100% of Netlify's limit/);
  assert.match(
    netlify(54_001)[0]!,
    /^one folder of dist\/ will hold up to 54,001 files, over Netlify's limit of 54,000 files in one folder: Netlify fails the deploy; serve it from Cloudflare, with Workers KV/,
  );
  // The bodies fill one folder: a registry meets Netlify's limit at 54,000 manifests.
  assert.equal(staticOutput({ manifestFiles: 54_001, redirects: 10, revoked: 10 }).largestFolder, 54_001);
});

test("a largest manifest over Cloudflare's 25 MiB per file and per KV value is a warning", () => {
  const small = { files: 10, largestFolder: 5 };
  assert.deepEqual(warnings(small, CLOUDFLARE_MAX_FILE_BYTES), []);
  assert.match(
    warnings(small, CLOUDFLARE_MAX_FILE_BYTES + 1)[0]!,
    /^UM_MAX_MANIFEST_BYTES is 26,214,401 \(25\.0 MiB\): Cloudflare refuses a static file or a Workers KV value over 25\.0 MiB/,
  );
});

const scratch = mkdtempSync(join(tmpdir(), "um-host-limits-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const key = newKey();

/** Builds a content folder of these manifests and routes; returns the number of files in its output. */
async function filesBuilt(
  name: string,
  umids: string[],
  routes: { redirects: string[]; revoked: string[] },
): Promise<number> {
  const content = join(scratch, name);
  mkdirSync(content, { recursive: true });
  for (const [i, umid] of umids.entries()) {
    writeFileSync(join(content, `m${i}.json`), JSON.stringify(signed(manifestFor(umid), key)));
  }
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
  writeFileSync(
    join(content, "_routes.json"),
    JSON.stringify({
      redirects: routes.redirects.map((umid) => ({
        umid,
        location: `https://elsewhere.example/${encodeURIComponent(umid)}`,
      })),
      revoked: routes.revoked.map((umid) => ({ umid })),
    }),
  );
  const out = join(scratch, `${name}-dist`);
  const built = await runCli(
    ["build", "--content", content, "--out", out, "--lookup-out", join(scratch, `${name}-lookup`)],
    scratch,
    { UM_RESOLVER_URL: "https://resolver.example" },
  );
  assert.equal(built.status, 0, built.stdout + built.stderr);
  // Small content: no Workers KV files unless asked for.
  assert.deepEqual(
    readdirSync(scratch).filter((entry) => entry.includes("kv")),
    [],
  );
  return readdirSync(out, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

test("the count is what a real build writes: exactly, when every manifest is published and every record has a shard of its own", async () => {
  const umids = Array.from({ length: 7 }, (_, n) => umidOf(n));
  const routes = { redirects: [umidOf(100)], revoked: [umidOf(101)] };
  const records = [...umids, ...routes.redirects, ...routes.revoked];
  assert.equal(new Set(records.map(shardPath)).size, records.length, "the premise: no two records share a shard");
  const output = staticOutput({ manifestFiles: umids.length, redirects: 1, revoked: 1 });
  assert.equal(await filesBuilt("exact", umids, routes), output.files);
});

test("the count is at most what a real build writes: a withheld manifest writes no body, and records in one shard share its file", async () => {
  // Two UMIDs whose records fall in the same shard, found by trying.
  const byShard = new Map<string, string>();
  let pair: [string, string] | undefined;
  for (let n = 0; pair === undefined; n++) {
    const umid = `urn:shared-shard:${n}`;
    const other = byShard.get(shardPath(umid));
    if (other !== undefined) pair = [other, umid];
    else byShard.set(shardPath(umid), umid);
  }
  const withheld = "urn:revoked:with-file";
  const umids = [...pair, withheld];
  assert.equal(new Set(umids.map(shardPath)).size, 2, "the premise: exactly two of the records share a shard");
  const output = staticOutput({ manifestFiles: umids.length, redirects: 0, revoked: 1 });
  // Counted but not written: the withheld manifest's body, its record counted twice (file and revocation), the shared shard.
  assert.equal(await filesBuilt("bound", umids, { redirects: [], revoked: [withheld] }), output.files - 3);
});
