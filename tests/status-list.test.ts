/**
 * Status lists end to end (issue 27): 30 manifests signed into one list by `sign
 * --status-list`, two revoked and two suspended in `_routes.json`, built with a list key,
 * served by `serve`, and read back by a relying party: every entry of the served list is
 * its UMID's status, the indices are unique and random, `resolve` reads each status
 * through the list (fetched once for all 30), a copy of the content served elsewhere
 * without the revocations is still rejected as revoked, and federation gives the most
 * restrictive answer, with a warning only when peers disagree.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createPublicKey } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { memoryCache, resolve } from "../core/client/index.ts";
import { verifyEddsaJcs2022Proof } from "../core/crypto/eddsa-jcs-2022.ts";
import { ed25519DidKey } from "../core/did/did-key.ts";
import { decodeStatusList, STATUS_LIST_ENTRIES } from "../core/status-list/bitstring.ts";
import { readStatusListCredential } from "../core/status-list/credential.ts";
import { listEntryRef } from "../core/status-list/list-entry-ref.ts";
import { rawPublicKey } from "./support/did.ts";
import { FIXTURE_KEY_REF, manifestFor, newKey, pinning } from "./support/fixture-content.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-status-list-"));
const content = join(scratch, "content");
const signingKey = newKey();
const listKey = newKey();
const UMIDS = Array.from({ length: 30 }, (_, i) => `urn:herd:${String(i).padStart(2, "0")}`);
const REVOKED = [UMIDS[3]!, UMIDS[17]!];
const SUSPENDED = [UMIDS[8]!, UMIDS[25]!];
/** Active at the publisher, revoked by a peer. */
const REVOKED_BY_PEER = UMIDS[11]!;
const ROUTES = {
  revoked: REVOKED.map((umid) => ({ umid, revokedAt: "2026-06-01T00:00:00Z", reason: "key lost" })),
  suspended: SUSPENDED.map((umid) => ({ umid, suspendedAt: "2026-05-01T00:00:00Z", reason: "under review" })),
};
const servers: Started[] = [];
let publisher: string;
let allocation: { url: string; entries: [number, string][] };

const pemFile = (name: string, key: typeof signingKey) => {
  const path = join(scratch, name);
  writeFileSync(path, key.export({ format: "pem", type: "pkcs8" }));
  return path;
};

/** Builds `from` into a dist of its own and serves it; its base URL. */
async function buildAndServe(name: string, from: string, env: Record<string, string> = {}): Promise<string> {
  const dist = join(scratch, `${name}-dist`);
  const built = await runCliInProcess(
    ["build", "--content", from, "--out", dist, "--lookup-out", `${dist}-lookup`],
    scratch,
    env,
  );
  assert.equal(built.status, 0, built.stdout + built.stderr);
  const port = env.UM_RESOLVER_URL === undefined ? await freePort() : Number(new URL(env.UM_RESOLVER_URL).port);
  const started = await startPrintingUrl(
    process.execPath,
    [CLI, "serve", "--dist", dist, "--port", String(port)],
    process.env,
    1,
    scratch,
  );
  servers.push(started);
  return started.url.replace(/\/$/, "");
}

/** A copy of the content whose `_routes.json` is `routes`. */
function contentWith(name: string, routes: object): string {
  const copy = join(scratch, name);
  cpSync(content, copy, { recursive: true });
  writeFileSync(join(copy, "_routes.json"), JSON.stringify(routes));
  return copy;
}

before(async () => {
  mkdirSync(content, { recursive: true });
  for (const umid of UMIDS) writeFileSync(join(content, `${umid.slice(-2)}.json`), JSON.stringify(manifestFor(umid)));
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(signingKey)));
  const base = `http://127.0.0.1:${await freePort()}`;
  const signedAll = await runCliInProcess(
    [
      "sign",
      content,
      "--key",
      pemFile("signing.pem", signingKey),
      "--key-ref",
      FIXTURE_KEY_REF,
      "--status-base",
      base,
      "--status-list",
      "--content",
      content,
    ],
    scratch,
  );
  assert.equal(signedAll.status, 0, signedAll.stdout + signedAll.stderr);
  const lists = readdirSync(join(content, "_status"));
  assert.equal(lists.length, 1, `one list for 30 manifests: ${lists}`);
  allocation = JSON.parse(readFileSync(join(content, "_status", lists[0]!), "utf8"));
  writeFileSync(join(content, "_routes.json"), JSON.stringify(ROUTES));
  publisher = await buildAndServe("publisher", content, {
    UM_RESOLVER_URL: base,
    UM_STATUS_LIST_KEY: pemFile("list.pem", listKey),
  });
});

after(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

const expectedStatus = (umid: string) =>
  REVOKED.includes(umid) ? "revoked" : SUSPENDED.includes(umid) ? "suspended" : "active";
const statusRefOf = (umid: string) => {
  const file = JSON.parse(readFileSync(join(content, `${umid.slice(-2)}.json`), "utf8"));
  return file.signature.statusRef as string;
};

describe("a status list, signed, built and served", () => {
  it("gives each manifest its own random index, recorded in content/_status/", () => {
    const indices = allocation.entries.map(([index]) => index);
    assert.deepEqual(allocation.entries.map(([, umid]) => umid).sort(), [...UMIDS].sort());
    assert.equal(new Set(indices).size, 30);
    assert.ok(indices.every((index) => Number.isInteger(index) && index >= 0 && index < STATUS_LIST_ENTRIES));
    // Not handed out in order: neither consecutive, nor rising in the order the files were signed.
    const sorted = [...indices].sort((a, b) => a - b);
    assert.notEqual(sorted.at(-1)! - sorted[0]!, 29);
    const inSigningOrder = UMIDS.map((umid) => listEntryRef(statusRefOf(umid))!.index);
    assert.notDeepEqual(inSigningOrder, sorted);
    for (const [index, umid] of allocation.entries)
      assert.deepEqual(listEntryRef(statusRefOf(umid)), { listUrl: allocation.url, index });
  });

  it("serves the list as a signed BitstringStatusListCredential whose every entry is its UMID's status", async () => {
    const response = await fetch(allocation.url);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/vc+ld+json");
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.match(response.headers.get("etag") ?? "", /^W\/".+"$/);
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1]);
    assert.ok(maxAge > 0 && maxAge <= 300, response.headers.get("cache-control") ?? "no Cache-Control");
    const credential = (await response.json()) as Record<string, unknown>;
    const proof = await verifyEddsaJcs2022Proof(credential);
    assert.ok(proof.verified, JSON.stringify(proof));
    assert.equal(proof.verificationMethod.split("#")[0], ed25519DidKey(rawPublicKey(listKey)));
    const read = readStatusListCredential(credential);
    assert.ok(!("problem" in read), JSON.stringify(read));
    assert.equal(read.id, allocation.url);
    const bits = await decodeStatusList(read.encodedList);
    assert.ok(!("problem" in bits), JSON.stringify(bits));
    const owner = new Map(allocation.entries);
    let set = 0;
    for (let index = 0; index < bits.entries; index++) {
      const code = bits.codeAt(index);
      const umid = owner.get(index);
      if (umid === undefined) assert.equal(code, 0, `index ${index} belongs to no manifest`);
      else assert.equal(read.meaning(code), expectedStatus(umid), `${umid} at ${index}`);
      if (code !== 0) set++;
    }
    assert.equal(set, 4);
    assert.equal(createPublicKey(listKey).asymmetricKeyType, "ed25519");
  });

  it("resolve reads every status through the list, fetching it once for all 30", async () => {
    const cache = memoryCache();
    const asked: string[] = [];
    const counting: typeof fetch = (input, init) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    for (const umid of UMIDS) {
      const resolution = await resolve(publisher, umid, { cache, fetch: counting, offline: true });
      assert.ok("receipt" in resolution, JSON.stringify(resolution));
      assert.equal(resolution.receipt.revocationStatus, expectedStatus(umid), umid);
    }
    assert.equal(asked.filter((url) => url === allocation.url).length, 1, asked.join("\n"));
  });
});

describe("copies and peers", () => {
  let mirror: string;
  let peerThatRevoked: string;
  before(async () => {
    mirror = await buildAndServe("mirror", contentWith("mirror-content", {}));
    peerThatRevoked = await buildAndServe(
      "peer",
      contentWith("peer-content", {
        ...ROUTES,
        revoked: [...ROUTES.revoked, { umid: REVOKED_BY_PEER, revokedAt: "2026-07-01T00:00:00Z" }],
      }),
    );
  });

  it("a copy served elsewhere without the revocations is rejected as revoked through the publisher's list", async () => {
    const resolution = await resolve(mirror, REVOKED[0]!, { offline: true });
    assert.ok("receipt" in resolution, JSON.stringify(resolution));
    assert.equal(resolution.manifestUrl.startsWith(mirror), true, "the mirror served the body");
    assert.equal(resolution.receipt.revocationStatus, "revoked");
    assert.equal(resolution.receipt.outcome, "rejected");
    const codes = resolution.receipt.warnings.map((warning) => warning.code);
    assert.ok(codes.includes("um:reason:status:foreign-origin"), codes.join(", "));
  });

  const resolveCli = async (umid: string, ...flags: string[]) => {
    const result = await runCliInProcess(["resolve", publisher, umid, "--offline", "--json", ...flags], scratch);
    assert.notEqual(result.stdout, "", result.stderr);
    return { status: result.status, receipt: JSON.parse(result.stdout) };
  };
  const codesOf = (receipt: { warnings: { code: string }[] }) => receipt.warnings.map((warning) => warning.code);

  it("peers that agree: the status, and no federation warning", async () => {
    const { status, receipt } = await resolveCli(REVOKED_BY_PEER, "--federate", mirror);
    assert.equal(status, 0);
    assert.equal(receipt.revocationStatus, "active");
    assert.ok(!codesOf(receipt).some((code: string) => code.startsWith("um:reason:status:federation")));
  });

  it("a peer that revoked wins, with federation-inconsistent naming who said what", async () => {
    const { status, receipt } = await resolveCli(REVOKED_BY_PEER, "--federate", mirror, "--federate", peerThatRevoked);
    assert.equal(status, 1);
    assert.equal(receipt.revocationStatus, "revoked");
    assert.equal(receipt.outcome, "rejected");
    const warning = receipt.warnings.find(
      (w: { code: string }) => w.code === "um:reason:status:federation-inconsistent",
    );
    assert.ok(warning, JSON.stringify(receipt.warnings));
    assert.ok(warning.message.includes(peerThatRevoked) && warning.message.includes(publisher), warning.message);
  });
});
