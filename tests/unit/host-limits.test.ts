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
import { shardOf } from "../../edge/shard-file.ts";
import {
  CLOUDFLARE_MAX_FILE_BYTES,
  fullestBodyFolder,
  hostWarnings,
  staticOutput,
  writesKv,
  type StaticOutput,
} from "../../scripts/plan/host-limits.ts";
import { manifestFor, newKey, pinning, signed } from "../support/fixture-content.ts";
import { assertLineNames } from "../support/problems.ts";
import { runCliInProcess } from "../support/cli-in-process.ts";

const dirs = { out: "dist", kv: "dist-kv" };
const warnings = (output: StaticOutput, maxManifestBytes = 1_048_576) => hostWarnings(output, dirs, maxManifestBytes);
/**
 * Asserts that `warning` names each of `named` (the host, the folder, the count, the limit,
 * the way out), and the share of the limit reached, or none (`over` it: no share, it is past).
 */
function assertWarns(warning: string | undefined, share: `${number}%` | "over", ...named: string[]): void {
  assert.ok(warning, "a warning");
  if (share === "over") assert.ok(!warning.includes("%"), warning);
  assertLineNames(warning, ...(share === "over" ? named : [share, ...named]));
}
/** UMIDs shaped like the benchmark's (bench/corpus.ts). */
const umidOf = (i: number) => `urn:uuid:${String(i).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`;

test(
  "20,000 manifests switch to Workers KV: their output holds over 20,000 files " +
    "(the old rule, manifests > 20,000, did not switch)",
  () => {
    const output = staticOutput({ manifestFiles: 20_000, redirects: 0, revoked: 0 });
    assert.equal(output.files, 20_000 + INDEX_SHARDS + 1);
    assert.equal(writesKv(output), true);
    // What such a build really writes: a body each, a shard for each hash prefix met, resolver.json.
    const shards = new Set(Array.from({ length: 20_000 }, (_, i) => shardPath(umidOf(i)))).size;
    assert.ok(20_000 + shards + 1 > 20_000 && 20_000 + shards + 1 <= output.files, `${shards} shards`);
  },
);

test(
  "the switch is at Cloudflare's free-plan limit, counted in files: 15,903 " +
    "manifests fit (20,000 files), 15,904 do not",
  () => {
    const fits = staticOutput({ manifestFiles: 15_903, redirects: 0, revoked: 0 });
    assert.equal(fits.files, 20_000);
    assert.equal(writesKv(fits), false);
    assert.equal(writesKv(staticOutput({ manifestFiles: 15_904, redirects: 0, revoked: 0 })), true);
  },
);

test(
  "a small content stays static, warns of nothing, and counts a shard per record " +
    "while records are fewer than shards",
  () => {
    const output = staticOutput({ manifestFiles: 6, redirects: 1, revoked: 2 });
    assert.deepEqual(output, { files: 6 + 9 + 1, largestFolder: 9 });
    assert.equal(writesKv(output), false);
    assert.deepEqual(warnings(output), []);
    assert.deepEqual(staticOutput({ manifestFiles: 0, redirects: 0, revoked: 0 }), { files: 1, largestFolder: 0 });
    // A did:web document is one more file, and a shard of the route table.
    assert.equal(staticOutput({ manifestFiles: 0, redirects: 0, revoked: 0, didDocuments: true }).files, 3);
  },
);

test("a transparency log's files count toward the limits: past Cloudflare's free plan, KV files are written", () => {
  // Each routed file, and up to a route table's shard for each.
  assert.equal(staticOutput({ manifestFiles: 6, redirects: 1, revoked: 2, logFiles: 4 }).files, 6 + 9 + 1 + 4 + 4);
  // 15,903 manifests fit (above); with a log of their 15,903 entries (63 level 0 tiles, 63 bundles, 64 buckets, a
  // partial level 1 tile and the checkpoint) they do not.
  assert.equal(writesKv(staticOutput({ manifestFiles: 15_903, redirects: 0, revoked: 0, logFiles: 192 })), true);
});

test(
  "Cloudflare: a warning from 90% of the free plan's 20,000 files, naming the " + "count, the limit and the way out",
  () => {
    assert.deepEqual(warnings({ files: 17_999, largestFolder: 13_902 }), []);
    const [near, ...rest] = warnings({ files: 18_000, largestFolder: 13_903 });
    assert.deepEqual(rest, []);
    assertWarns(near, "90%", "dist/", "18,000", "Cloudflare", "free-plan", "20,000", "dist-kv/");
    assertWarns(warnings({ files: 20_000, largestFolder: 15_903 })[0], "100%", "Cloudflare", "free-plan", "20,000");
    const [over] = warnings({ files: 20_001, largestFolder: 15_904 });
    // The ways out: Workers KV's bulk files, or Workers Paid and its limit.
    assertWarns(
      over,
      "over",
      "dist/",
      "20,001",
      "Cloudflare",
      "free-plan",
      "20,000",
      "dist-kv/",
      "Workers Paid",
      "100,000",
    );
  },
);

test("Cloudflare: past 90% of Workers Paid's 100,000 files, one warning, about that limit", () => {
  const near = warnings({ files: 90_000, largestFolder: 40_000 });
  assert.equal(near.length, 1);
  assertWarns(near[0], "90%", "dist/", "90,000", "Cloudflare", "Workers Paid", "100,000", "dist-kv/");
  assert.ok(!near[0]!.includes("free-plan"), near[0]);
  const over = warnings({ files: 100_001, largestFolder: 40_000 });
  assert.equal(over.length, 1);
  assertWarns(over[0], "over", "dist/", "100,001", "Cloudflare", "Workers Paid", "100,000", "dist-kv/");
  assert.ok(!over[0]!.includes("free-plan"), over[0]);
});

test("Netlify: a warning from 90% of its 54,000 files in one folder, and that the deploy fails past it", () => {
  const netlify = (largestFolder: number) =>
    warnings({ files: 50_000, largestFolder }).filter((w) => w.includes("Netlify"));
  assert.deepEqual(netlify(48_599), []);
  assertWarns(netlify(48_600)[0], "90%", "dist/", "48,600", "54,000");
  assertWarns(netlify(54_000)[0], "100%", "54,000");
  // The way out: Cloudflare, with Workers KV's bulk files.
  assertWarns(netlify(54_001)[0], "over", "dist/", "54,001", "54,000", "Cloudflare", "dist-kv/");
});

test(
  "bodies fan out over 4,096 folders: up to 10 million manifests, no folder nears 10,000 entries, nor Netlify's limit " +
    "(one folder held every body: 54,001 manifests failed a Netlify deploy)",
  () => {
    assert.equal(staticOutput({ manifestFiles: 54_001, redirects: 10, revoked: 10 }).largestFolder, INDEX_SHARDS);
    const tenMillion = staticOutput({ manifestFiles: 10_000_000, redirects: 0, revoked: 0 });
    assert.equal(tenMillion.largestFolder, INDEX_SHARDS, "index/ is the fullest folder");
    assert.deepEqual(
      warnings(tenMillion).filter((w) => w.includes("Netlify")),
      [],
    );
    // The fullest body folder as estimated, and as found: generated UMIDs spread by the very hash the build uses.
    const bodies = 1_000_000;
    const perFolder = new Map<string, number>();
    for (let i = 0; i < bodies; i++) perFolder.set(shardOf(umidOf(i)), (perFolder.get(shardOf(umidOf(i))) ?? 0) + 1);
    const fullest = Math.max(...perFolder.values());
    assert.ok(fullest > bodies / INDEX_SHARDS && fullest <= fullestBodyFolder(bodies), `${fullest} bodies`);
    assert.ok(fullestBodyFolder(10_000_000) < 10_000);
  },
);

test("a largest manifest over Cloudflare's 25 MiB per file and per KV value is a warning", () => {
  const small = { files: 10, largestFolder: 5 };
  assert.deepEqual(warnings(small, CLOUDFLARE_MAX_FILE_BYTES), []);
  // The setting, its value, Cloudflare's limit, and the most it may be set to there.
  assertWarns(
    warnings(small, CLOUDFLARE_MAX_FILE_BYTES + 1)[0],
    "over",
    "UM_MAX_MANIFEST_BYTES",
    "26,214,401",
    "Cloudflare",
    "25.0 MiB",
    "26,214,400",
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
  const built = await runCliInProcess(
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

test(
  "the count is what a real build writes: exactly, when every manifest is " +
    "published and every record has a shard of its own",
  async () => {
    const umids = Array.from({ length: 7 }, (_, n) => umidOf(n));
    const routes = { redirects: [umidOf(100)], revoked: [umidOf(101)] };
    const records = [...umids, ...routes.redirects, ...routes.revoked];
    assert.equal(new Set(records.map(shardPath)).size, records.length, "the premise: no two records share a shard");
    const output = staticOutput({ manifestFiles: umids.length, redirects: 1, revoked: 1 });
    assert.equal(await filesBuilt("exact", umids, routes), output.files);
  },
);

test(
  "the count is at most what a real build writes: a withheld manifest writes no " +
    "body, and records in one shard share its file",
  async () => {
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
    // Counted but not written: the withheld manifest's body, its record counted twice (file and revocation), the shared
    // shard.
    assert.equal(await filesBuilt("bound", umids, { redirects: [], revoked: [withheld] }), output.files - 3);
  },
);
