/**
 * The status lists a build publishes (issue 27, section 1; VC Bitstring Status List §2.2, §3.1, §3.2): derived from
 * `_routes.json` and content/_status/, each entry the status the status endpoint answers (30 manifests, 2 revoked and
 * 2 suspended), with an eddsa-jcs-2022 proof by UM_STATUS_LIST_KEY's did:key or, without it, unsigned and said so
 * once; the same in a warm build as in a cold one and in Workers KV; served with their headers, 304 and 404; and the
 * discovery document of EXT-OPT O5 published from content/_resolvers.json.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decodeBase64url } from "../core/base64url.ts";
import { verifyEddsaJcs2022Proof } from "../core/crypto/eddsa-jcs-2022.ts";
import { ed25519DidKey, ed25519Multibase } from "../core/did/did-key.ts";
import { decodeStatusList, type StatusBits } from "../core/status-list/bitstring.ts";
import { MAX_DISCOVERED_PEERS } from "../core/client/resolvers-document.ts";
import { readStatusListCredential } from "../core/status-list/credential.ts";
import { listEntryRef } from "../core/status-list/list-entry-ref.ts";
import { RESOLVERS_PATH, STATUS_LIST_PREFIX } from "../core/umid-path.ts";
import { directoryReader } from "../edge/adapters/node.ts";
import { answer } from "../edge/handler.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { FIXTURE_RESOLVER_URL, newKey } from "./support/fixture-content.ts";
import { kvPairs } from "./support/kv-files.ts";
import { routedIn } from "./support/route-table.ts";
import { printedProblems } from "./support/problems.ts";
import { type StatusListScratch, statusListScratch } from "./support/status-list-content.ts";

const REVOKED = ["urn:list:3", "urn:list:17"];
const SUSPENDED = ["urn:list:8", "urn:list:25"];

let made: StatusListScratch;
let listKey: string;
before(async () => {
  made = statusListScratch("um-status-build-");
  for (let i = 0; i < 30; i++) made.write(`m${i}.json`, `urn:list:${i}`);
  assert.equal((await made.sign()).status, 0);
  for (const umid of REVOKED) assert.equal((await made.cli(["revoke", umid, "--content", made.content])).status, 0);
  for (const umid of SUSPENDED) assert.equal((await made.cli(["suspend", umid, "--content", made.content])).status, 0);
  listKey = join(made.dir, "list-key.pem");
  writeFileSync(listKey, newKey().export({ format: "pem", type: "pkcs8" }));
});
after(() => rmSync(made.dir, { recursive: true, force: true }));

/** Builds the content into `<out>`, `<out>-lookup` and `<out>-kv` of the scratch folder. */
async function build(out: string, env: Record<string, string> = {}) {
  const dir = join(made.dir, out);
  const run = await made.cli(
    ["build", "--content", made.content, "--out", dir, "--lookup-out", `${dir}-lookup`, "--kv-out", `${dir}-kv`],
    env,
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return { dir, run };
}

/** The one list a build published: its path, credential and decoded bits. */
async function publishedList(dir: string) {
  const documents = [...routedIn(dir)].filter(([path]) => path.startsWith(STATUS_LIST_PREFIX));
  assert.equal(documents.length, 1);
  const [path, { bytes }] = documents[0]!;
  const credential = JSON.parse(bytes.toString()) as Record<string, unknown>;
  const read = readStatusListCredential(credential);
  assert.ok(!("problem" in read), JSON.stringify(read));
  const bits = await decodeStatusList(read.encodedList);
  assert.ok(!("problem" in bits));
  return { path, credential, read, bits: bits as StatusBits };
}

describe("the status lists a build publishes (issue 27, section 1)", () => {
  it("derives every entry from _routes.json: 2 revoked, 2 suspended, the rest 0; unsigned, said once", async () => {
    const { dir, run } = await build("unsigned");
    const { path, credential, read, bits } = await publishedList(dir);
    const statusRef = made.manifest("m0.json").signature.statusRef;
    const { listUrl } = listEntryRef(statusRef)!;
    assert.equal(read.id, listUrl);
    assert.equal(`${FIXTURE_RESOLVER_URL}${path}`, listUrl);
    assert.equal(credential.issuer, FIXTURE_RESOLVER_URL);
    assert.equal(credential.proof, undefined);
    assert.equal(read.ttlMs, 300_000);
    let nonZero = 0;
    for (let index = 0; index < bits.entries; index++) if (bits.codeAt(index) !== 0) nonZero++;
    assert.equal(nonZero, 4);
    for (let i = 0; i < 30; i++) {
      const umid = `urn:list:${i}`;
      const { index } = listEntryRef(made.manifest(`m${i}.json`).signature.statusRef)!;
      const expected = REVOKED.includes(umid) ? "revoked" : SUSPENDED.includes(umid) ? "suspended" : "active";
      assert.equal(read.meaning(bits.codeAt(index)), expected, umid);
    }
    // validFrom: the latest status's start, here the last suspension.
    const routes = JSON.parse(readFileSync(join(made.content, "_routes.json"), "utf8"));
    const latest = [
      ...routes.revoked.map((r: { revokedAt: string }) => r.revokedAt),
      ...routes.suspended.map((s: { suspendedAt: string }) => s.suspendedAt),
    ]
      .map((at: string) => new Date(at).toISOString())
      .sort()
      .at(-1);
    assert.equal(credential.validFrom, latest);
    const unsigned = printedProblems(run.stdout).filter((p) => p.rule === "status-list/unsigned");
    assert.equal(unsigned.length, 1, run.stdout);
  });

  it("signs each list with UM_STATUS_LIST_KEY: an eddsa-jcs-2022 proof by its did:key, which verifies", async () => {
    for (const key of [listKey, readFileSync(listKey, "utf8")]) {
      const { dir, run } = await build("signed", { UM_STATUS_LIST_KEY: key });
      assert.ok(!printedProblems(run.stdout).some((p) => p.rule === "status-list/unsigned"));
      const { credential } = await publishedList(dir);
      const verdict = await verifyEddsaJcs2022Proof(credential);
      assert.ok(verdict.verified, JSON.stringify(verdict));
      const raw = decodeBase64url(createPublicKey(readFileSync(listKey)).export({ format: "jwk" }).x!)!;
      assert.equal(verdict.verificationMethod, `${ed25519DidKey(raw)}#${ed25519Multibase(raw)}`);
      assert.equal(credential.issuer, ed25519DidKey(raw));
      const proof = credential.proof as Record<string, unknown>;
      assert.equal(proof.created, credential.validFrom);
      assert.equal(proof.proofPurpose, "assertionMethod");
    }
  });

  it("refuses a key it cannot use, naming the variable", async () => {
    const run = await made.cli(["build", "--content", made.content, "--out", join(made.dir, "bad")], {
      UM_STATUS_LIST_KEY: join(made.dir, "no-such-key.pem"),
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /UM_STATUS_LIST_KEY/);
  });

  it("publishes the same lists from a warm build as from a cold one, and in Workers KV", async () => {
    const warm = await build("warm");
    assert.equal((await made.cli(["reinstate", SUSPENDED[0]!, "--content", made.content])).status, 0);
    await build("warm");
    const cold = await build("cold");
    const warmRoutes = routedIn(warm.dir);
    assert.deepEqual(warmRoutes, routedIn(cold.dir));
    const { path, read, bits } = await publishedList(warm.dir);
    const { index } = listEntryRef(made.manifest("m8.json").signature.statusRef)!;
    assert.equal(read.meaning(bits.codeAt(index)), "active");
    const { row, bytes } = warmRoutes.get(path)!;
    const pair = kvPairs(`${cold.dir}-kv`).find((p) => p.key === row.stored);
    assert.deepEqual(Buffer.from(pair?.value ?? "", "base64"), bytes);
  });
});

describe("the lists and the discovery document served (issue 27, sections 1 and 3)", () => {
  let dir: string;
  const get = async (path: string, ifNoneMatch?: string) => {
    const headers = new Headers(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch });
    const records = new StaticRecords().reading(directoryReader(dir));
    const got = await answer({ method: "GET", url: `https://resolver.test${path}`, headers }, records);
    return { status: got.status, headers: new Map(got.headers.map(([n, v]) => [n.toLowerCase(), v])), got };
  };

  before(async () => {
    const resolvers = {
      resolver: "did:web:fixture.example",
      peers: [{ url: "https://peer.example/", did: "did:web:peer.example" }],
    };
    writeFileSync(join(made.content, "_resolvers.json"), JSON.stringify(resolvers, null, 2));
    dir = (await build("served")).dir;
  });

  it("serves each list as application/vc+ld+json, with CORS, an ETag, max-age=300 and 304", async () => {
    const { path } = await publishedList(dir);
    const list = await get(path);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("content-type"), "application/vc+ld+json");
    assert.equal(list.headers.get("access-control-allow-origin"), "*");
    assert.equal(list.headers.get("cache-control"), "public, max-age=300");
    assert.equal(list.headers.get("x-um-resolver-contract"), "manifest-resolver/v0.1");
    const etag = list.headers.get("etag")!;
    assert.match(etag, /^W\/"/);
    assert.deepEqual(Buffer.from(list.got.body!), routedIn(dir).get(path)!.bytes);
    const again = await get(path, etag);
    assert.equal(again.status, 304);
    assert.equal(again.headers.get("etag"), etag);
    assert.equal((await get(`${path.slice(0, -1)}x`)).status, 404);
  });

  it("serves the discovery document as application/json", async () => {
    const document = await get(RESOLVERS_PATH);
    assert.equal(document.status, 200);
    assert.equal(document.headers.get("content-type"), "application/json");
    assert.equal(document.headers.get("cache-control"), "public, max-age=300");
    assert.deepEqual(JSON.parse(Buffer.from(document.got.body!).toString()).peers, [
      { url: "https://peer.example/", did: "did:web:peer.example" },
    ]);
  });

  it("refuses a discovery document whose peer is not a secure URL with a DID", async () => {
    writeFileSync(
      join(made.content, "_resolvers.json"),
      JSON.stringify({ resolver: "did:web:fixture.example", peers: [{ url: "http://peer.example/", did: "peer" }] }),
    );
    const run = await made.cli(["check", "--content", made.content]);
    assert.equal(run.status, 1);
    const problems = printedProblems(run.stdout).filter((p) => p.rule === "resolvers/bad-document");
    assert.equal(problems.length, 2, run.stdout);
    rmSync(join(made.content, "_resolvers.json"));
  });

  it("keeps a revoked UMID's entry revoked once its manifest's file is deleted: _routes.json and the allocation say so", async () => {
    const { index } = listEntryRef(made.manifest("m17.json").signature.statusRef)!;
    rmSync(join(made.content, "m17.json"));
    const { read, bits } = await publishedList((await build("deleted")).dir);
    // Only dropping the allocation too frees the entry, which check --base refuses (history/status-entry-unrevoked).
    assert.equal(read.meaning(bits.codeAt(index)), "revoked");
  });

  // Issue 37, defect 3: check read it by rules of its own and passed 17 peers, a document every client refuses whole.
  it("refuses, as every client does, a discovery document naming 17 peers", async () => {
    const peers = Array.from({ length: MAX_DISCOVERED_PEERS + 1 }, (_, i) => ({
      url: `https://peer${i}.example/`,
      did: `did:web:peer${i}.example`,
    }));
    writeFileSync(
      join(made.content, "_resolvers.json"),
      JSON.stringify({ resolver: "did:web:fixture.example", peers }),
    );
    const run = await made.cli(["check", "--content", made.content]);
    assert.equal(run.status, 1, run.stdout);
    const problems = printedProblems(run.stdout).filter((p) => p.rule === "resolvers/bad-document");
    assert.equal(problems.length, 1, run.stdout);
    rmSync(join(made.content, "_resolvers.json"));
  });
});
