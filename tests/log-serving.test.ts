/**
 * The transparency log as the resolver serves it (issue 26, section 4): at its C2SP tlog-tiles paths under
 * /.well-known/manifest-resolver/log/, the bytes of Go's known answers (section 5: a third party's tlog-tiles client
 * reads it); a build that serves the content's log, a warm build after the log grew serving the new one exactly as a
 * cold build does, `monitor` auditing it as `serve` serves it, and Workers KV holding the same files. (Each host's
 * answers are in tests/contract/.)
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { auditLog } from "../core/tlog/audit.ts";
import { openCheckpoint, signCheckpoint } from "../core/tlog/checkpoint.ts";
import { bucketOf, formatLatestLine, latestEntryIn, latestMap, parseLatestLine } from "../core/tlog/latest-map.ts";
import { parseSignerKey, parseVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer } from "../core/tlog/note-signature.ts";
import { directoryReader } from "../edge/adapters/node.ts";
import { answer } from "../edge/handler.ts";
import type { RecordStore } from "../edge/records.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { openContentLog } from "../scripts/log/log-folder.ts";
import { logRoutes } from "../scripts/log/log-output.ts";
import { routeFiles } from "../scripts/plan/routes.ts";
import { writeFiles as writeOutputFiles } from "../scripts/write/output.ts";
import { etagOf } from "./contract/cases.ts";
import { FIXTURE_RESOLVER_URL, manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { fileDigests, writeFiles } from "./support/file-tree.ts";
import { kvPairs } from "./support/kv-files.ts";
import { CLI } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl } from "./support/processes.ts";
import { skipWithoutVectors, vectors } from "./support/tlog-vectors.ts";

const LOG = "/.well-known/manifest-resolver/log/";
const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=5";

const scratch = mkdtempSync(join(tmpdir(), "um-log-serving-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Got {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

async function get(records: RecordStore, path: string, ifNoneMatch?: string): Promise<Got> {
  const headers = new Headers(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch });
  const got = await answer({ method: "GET", url: `https://resolver.test${LOG}${path}`, headers }, records);
  return {
    status: got.status,
    headers: new Map(got.headers.map(([name, value]) => [name.toLowerCase(), value])),
    body: Buffer.from(got.body ?? new Uint8Array()),
  };
}

const served = (dist: string) => new StaticRecords().reading(directoryReader(dist));

describe("the log served from Go's known answers (issue 26, section 5)", { skip: skipWithoutVectors }, () => {
  const v = vectors!;
  const size = 300;
  const content = join(scratch, "vectors", "content");
  const dist = join(scratch, "vectors", "dist");
  let records: RecordStore;
  let umids: string[];

  before(async () => {
    // content/_log/ as `log` would keep the vectors' first 300 entries: Go's tiles, the vectors' key, and a checkpoint
    // of Go's root with the latest map's line.
    umids = v.entries
      .slice(0, size)
      .map((entry) => (JSON.parse(Buffer.from(entry).toString()) as { umid: string }).umid);
    const map = await latestMap(umids);
    const signer = (await ed25519Signer(parseSignerKey(v.note.signerKey)!))!;
    const checkpoint = await signCheckpoint(
      { origin: v.note.origin, size, rootHash: v.roots.get(size)!, extensions: [formatLatestLine(map)] },
      signer,
    );
    writeFiles(join(content, "_log"), {
      ...Object.fromEntries([...v.tiles].map(([path, bytes]) => [path, Buffer.from(bytes)])),
      verifier: `${v.note.verifierKey}\n`,
      checkpoint,
    });
    await writeOutputFiles(dist, routeFiles(await logRoutes(await openContentLog(content))));
    records = served(dist);
  });

  it("serves every tile and entry bundle of Go's 300-entry tree at its tlog-tiles path, byte for byte", async () => {
    for (const [path, bytes] of v.tiles) {
      const got = await get(records, path);
      assert.equal(got.status, 200, path);
      assert.deepEqual(got.body, Buffer.from(bytes), path);
      assert.equal(got.headers.get("content-type"), "application/octet-stream", path);
      // tile/0/000 and tile/entries/000 are full: immutable; the rest are the tree's right edge.
      assert.equal(got.headers.get("cache-control"), path.includes(".p/") ? SHORT : IMMUTABLE, path);
      assert.equal(got.headers.get("etag"), etagOf(Buffer.from(bytes)), path);
      assert.equal((await get(records, path, got.headers.get("etag"))).status, 304, path);
    }
  });

  it("is read whole by a tlog-tiles client over HTTP: the checkpoint verifies, every tile audits", async () => {
    const got = await get(records, "checkpoint");
    assert.equal(got.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(got.headers.get("cache-control"), SHORT);
    const opened = await openCheckpoint(got.body, parseVerifierKey(v.note.verifierKey)!, v.note.origin);
    assert.ok(opened.ok, JSON.stringify(opened));
    assert.deepEqual(opened.checkpoint.rootHash, v.roots.get(size));
    const overHttp = {
      read: async (path: string) => ((r) => (r.status === 200 ? r.body : undefined))(await get(records, path)),
    };
    const entries: Uint8Array[] = [];
    const audit = await auditLog(overHttp, size, opened.checkpoint.rootHash, (bundle) => entries.push(...bundle) > 0);
    assert.ok(audit.ok, JSON.stringify(audit));
    assert.deepEqual(
      entries.map((entry) => Buffer.from(entry).toString()),
      v.entries.slice(0, size).map((entry) => Buffer.from(entry).toString()),
    );
  });

  it("proves each UMID's latest entry with its bucket file, served immutable; the verifier is not served", async () => {
    const opened = await openCheckpoint(
      (await get(records, "checkpoint")).body,
      parseVerifierKey(v.note.verifierKey)!,
      v.note.origin,
    );
    assert.ok(opened.ok);
    const commitment = parseLatestLine(opened.checkpoint.extensions)!;
    // 300 UMIDs, over 256: two buckets, so each file carries a proof.
    assert.equal(commitment.bits, 1);
    for (const [index, umid] of umids.entries()) {
      const got = await get(records, `latest/${size}/${bucketOf(umid, commitment.bits)}`);
      assert.equal(got.headers.get("content-type"), "application/json");
      assert.equal(got.headers.get("cache-control"), IMMUTABLE);
      assert.deepEqual(latestEntryIn(got.body, umid, commitment), { ok: true, index });
    }
    assert.equal((await get(records, `latest/${size}/2`)).status, 404);
    assert.equal((await get(records, "verifier")).status, 404);
  });
});

describe("a build serves the content's log", () => {
  const key = newKey();
  const logKey = join(scratch, "log.pem");
  writeFileSync(logKey, newKey().export({ format: "pem", type: "pkcs8" }));
  const content = join(scratch, "built", "content");
  const dist = join(scratch, "built", "dist");
  const cli = (...args: string[]) => runCliInProcess(args, scratch, { UM_RESOLVER_URL: FIXTURE_RESOLVER_URL });
  const build = async (out: string) => {
    const run = await cli("build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`);
    assert.equal(run.status, 0, run.stdout + run.stderr);
  };
  const publish = (umid: string) =>
    writeFileSync(join(content, `${umid.replaceAll(":", "-")}.json`), JSON.stringify(signed(manifestFor(umid), key)));
  const logged = async () => assert.equal((await cli("log", "--key", logKey, "--content", content)).status, 0);
  mkdirSync(content, { recursive: true });
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));

  it("without a log, serves none", async () => {
    publish("urn:a");
    publish("urn:b");
    await build(dist);
    assert.equal((await get(served(dist), "checkpoint")).status, 404);
  });

  it("serves the log's checkpoint, tiles and bucket; a warm build after the log grew serves the new log", async () => {
    await logged();
    await build(dist);
    const checkpoint = readFileSync(join(content, "_log", "checkpoint"));
    assert.deepEqual((await get(served(dist), "checkpoint")).body, checkpoint);
    for (const path of ["tile/0/000.p/2", "tile/entries/000.p/2", "latest/2/0"])
      assert.equal((await get(served(dist), path)).status, 200, path);

    publish("urn:c");
    await logged();
    await build(dist);
    const records = served(dist);
    assert.deepEqual((await get(records, "checkpoint")).body, readFileSync(join(content, "_log", "checkpoint")));
    for (const path of ["tile/0/000.p/2", "tile/entries/000.p/2", "latest/2/0"])
      assert.equal((await get(records, path)).status, 404, `${path}: the log of 2 entries is gone`);
    for (const path of ["tile/0/000.p/3", "tile/entries/000.p/3", "latest/3/0"]) {
      const got = await get(records, path);
      assert.equal(got.status, 200, path);
      if (path.startsWith("tile/")) assert.deepEqual(got.body, readFileSync(join(content, "_log", path)), path);
    }
  });

  it("passes manifest-resolver monitor's audit, as manifest-resolver serve serves it", async () => {
    const server = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"]);
    try {
      const run = await cli("monitor", server.url, "--log-key", join(content, "_log", "verifier"));
      assert.equal(run.status, 0, run.stdout + run.stderr);
    } finally {
      await server.stop();
    }
  });

  it("the warm build's output is the cold build's, and Workers KV holds the same log files", async () => {
    const cold = join(scratch, "built", "cold");
    const run = await cli(
      ...["build", "--content", content, "--out", cold, "--lookup-out", `${cold}-lookup`, "--kv-out", `${cold}-kv`],
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(fileDigests(dist), fileDigests(cold));
    const logPairs = kvPairs(`${cold}-kv`).filter((pair) => pair.key.startsWith("log/"));
    assert.deepEqual(
      logPairs.map((pair) => [pair.key, pair.base64]).sort(),
      Object.keys(fileDigests(join(cold, "log")))
        .map((file) => [`log/${file}`, true])
        .sort(),
    );
    for (const pair of logPairs)
      assert.deepEqual(Buffer.from(pair.value, "base64"), readFileSync(join(cold, pair.key)));
  });

  it("a log taken out of the content: the warm build serves none, and keeps nothing of it", async () => {
    rmSync(join(content, "_log"), { recursive: true });
    await build(dist);
    assert.equal((await get(served(dist), "checkpoint")).status, 404);
    assert.equal(existsSync(join(dist, "log")), false);
  });
});
