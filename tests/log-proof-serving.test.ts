/**
 * Offline proofs as the resolver serves them (issue 41): a build with a log, its manifest answers linking to each
 * UMID's proof, the proof verifying offline under the log's key alone; after the log grows, the new proof proves the
 * new body and refuses the old (log/not-latest) while the old proof still proves the old body against its own
 * checkpoint; and the build writing nothing for proofs, which are composed at the edge. (Each host's answers are in
 * tests/contract/.)
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { verifyOfflineProof } from "../core/client/offline-proof.ts";
import { keyOnlyPolicy } from "../core/tlog/log-policy.ts";
import { parseVerifierKey } from "../core/tlog/note-keys.ts";
import { TLOG_PROOF_HEADER } from "../core/tlog/tlog-proof.ts";
import { PROOF_PREFIX, TLOG_PROOF_RELATION, umidPath } from "../core/umid-path.ts";
import { directoryReader } from "../edge/adapters/node.ts";
import { answer } from "../edge/handler.ts";
import type { RecordStore } from "../edge/records.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { etagOf } from "./contract/cases.ts";
import { logScratch } from "./support/log-content.ts";

interface Got {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

async function request(records: RecordStore, path: string, method = "GET", ifNoneMatch?: string): Promise<Got> {
  const headers = new Headers(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch });
  const got = await answer({ method, url: `https://resolver.test${path}`, headers }, records);
  return {
    status: got.status,
    headers: new Map(got.headers.map(([name, value]) => [name.toLowerCase(), value])),
    body: Buffer.from(got.body ?? new Uint8Array()),
  };
}

const served = (dist: string) => new StaticRecords().reading(directoryReader(dist));
const proofPath = (umid: string, mode?: "b64u") => PROOF_PREFIX + umidPath(umid, mode);
const NOW = { now: Date.now() };

describe("offline proofs, served (issue 41)", () => {
  const scratch = logScratch("um-log-proof-");
  after(() => rmSync(scratch.dir, { recursive: true, force: true }));
  const content = scratch.content("site");
  const dist = join(scratch.dir, "dist");
  const build = async () => {
    const run = await scratch.cli("build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`);
    assert.equal(run.status, 0, run.stdout + run.stderr);
  };
  const log = async () =>
    assert.equal((await scratch.cli("log", "--key", scratch.logKey, "--content", content)).status, 0);
  const policy = () => keyOnlyPolicy(parseVerifierKey(readFileSync(join(content, "_log", "verifier"), "utf8").trim())!);
  for (const umid of ["urn:a", "urn:b", "urn:c/slash"]) scratch.publish(content, `${umid.slice(4, 5)}.json`, umid);

  it("without a log: no proof, and a manifest answer links to none", async () => {
    await build();
    const records = served(dist);
    assert.deepEqual(JSON.parse((await request(records, proofPath("urn:a"))).body.toString()), {
      error: "not_found",
      umid: "urn:a",
    });
    const manifest = await request(records, umidPath("urn:a"));
    assert.equal(manifest.status, 200);
    assert.equal(manifest.headers.get("link"), undefined);
  });

  let oldProof: string;
  let oldBody: Buffer;

  it("with a log: each manifest answer links to its proof, which verifies offline under the log's key", async () => {
    await log();
    await build();
    const records = served(dist);
    for (const umid of ["urn:a", "urn:b", "urn:c/slash"]) {
      for (const mode of [undefined, "b64u"] as const) {
        const manifest = await request(records, umidPath(umid, mode));
        assert.equal(manifest.status, 200, umid);
        const link = manifest.headers.get("link")!;
        assert.equal(link, `<${proofPath(umid, mode).slice(1)}>; rel="${TLOG_PROOF_RELATION}"`);
        // Relative to the manifest's URL: below a base path too.
        const base = "https://resolver.test/base";
        assert.equal(
          new URL(link.slice(1, link.indexOf(">")), base + umidPath(umid, mode)).href,
          base + proofPath(umid, mode),
        );
        const revalidated = await request(records, umidPath(umid, mode), "GET", manifest.headers.get("etag"));
        assert.equal(revalidated.status, 304);
        assert.equal(revalidated.headers.get("link"), manifest.headers.get("link"));

        const proof = await request(records, proofPath(umid, mode));
        assert.equal(proof.status, 200, `${umid}: ${proof.body}`);
        assert.equal(proof.headers.get("content-type"), "text/plain; charset=utf-8");
        assert.equal(proof.headers.get("cache-control"), "public, max-age=5");
        assert.equal(proof.headers.get("etag"), etagOf(proof.body));
        assert.equal(proof.headers.get("content-length"), String(proof.body.length));
        const verified = await verifyOfflineProof(proof.body.toString(), umid, manifest.body, policy(), NOW);
        assert.equal(verified.ok, true, JSON.stringify(verified));

        const notModified = await request(records, proofPath(umid, mode), "GET", proof.headers.get("etag"));
        assert.deepEqual([notModified.status, notModified.body.length], [304, 0]);
        assert.equal(notModified.headers.get("etag"), proof.headers.get("etag"));
        const head = await request(records, proofPath(umid, mode), "HEAD");
        assert.deepEqual([head.status, head.body.length], [200, 0]);
        assert.equal(head.headers.get("content-length"), String(proof.body.length));
      }
    }
    oldProof = (await request(records, proofPath("urn:a"))).body.toString();
    oldBody = (await request(records, umidPath("urn:a"))).body;
  });

  it("answers 404 for a UMID the log has no entry of, and 400 for a bad UMID_PATH as the status endpoint does", async () => {
    const records = served(dist);
    const unknown = await request(records, proofPath("urn:unknown"));
    assert.deepEqual(
      [unknown.status, JSON.parse(unknown.body.toString())],
      [404, { error: "not_found", umid: "urn:unknown" }],
    );
    for (const [path, message] of [
      ["", "missing UMID"],
      ["/", "missing UMID"],
      ["/a/b", "unexpected extra path segments"],
      ["/b64u:", "empty UMID"],
      ["/b64u:!", "invalid b64u UMID encoding"],
      ["/%E0%A4%A", "invalid UMID encoding"],
    ]) {
      const got = await request(records, PROOF_PREFIX + path);
      assert.deepEqual([got.status, JSON.parse(got.body.toString())], [400, { error: "bad_request", message }], path);
      const status = await request(records, `/.well-known/manifest-resolver/status${path}`);
      assert.deepEqual([status.status, status.body], [got.status, got.body], path);
    }
  });

  it("after a body changes and the log grows, the new proof refuses the old body; the old proof still proves it", async () => {
    const before = Object.fromEntries(
      await Promise.all(
        ["urn:b", "urn:c/slash"].map(async (umid) => [umid, (await request(served(dist), proofPath(umid))).body]),
      ),
    );
    scratch.publish(content, "a.json", "urn:a", { name: "changed" });
    await log();
    await build();
    const records = served(dist);
    const newBody = (await request(records, umidPath("urn:a"))).body;
    assert.notDeepEqual(newBody, oldBody);
    const newProof = (await request(records, proofPath("urn:a"))).body.toString();
    const verifiedNew = await verifyOfflineProof(newProof, "urn:a", newBody, policy(), NOW);
    assert.equal(verifiedNew.ok, true, JSON.stringify(verifiedNew));
    const oldAgainstNew = await verifyOfflineProof(newProof, "urn:a", oldBody, policy(), NOW);
    assert.equal(oldAgainstNew.ok ? undefined : oldAgainstNew.refusal.rule, "log/not-latest");
    const oldAgainstOld = await verifyOfflineProof(oldProof, "urn:a", oldBody, policy(), NOW);
    assert.equal(oldAgainstOld.ok, true, JSON.stringify(oldAgainstOld));
    assert.equal(oldAgainstOld.ok && oldAgainstOld.size, 3);
    assert.equal(verifiedNew.ok && verifiedNew.size, 4);
    // Every proof changes with the checkpoint, an unchanged UMID's too: hence none is a file of the build.
    for (const [umid, proof] of Object.entries(before))
      assert.notDeepEqual((await request(records, proofPath(umid))).body, proof, umid);
  });

  it("writes no file for proofs: none of the output holds one, and the route table routes none", () => {
    const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    assert.ok(files.length > 0);
    for (const entry of files) {
      const bytes = readFileSync(join(entry.parentPath, entry.name));
      assert.equal(bytes.includes(TLOG_PROOF_HEADER), false, entry.name);
      assert.equal(bytes.includes(PROOF_PREFIX), false, entry.name);
    }
  });
});
