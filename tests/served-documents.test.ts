/**
 * One reader per document (issue 37, defect 3): a build's output holds every kind of document the resolver serves
 * (manifests, 410s and redirects, status documents, a status list, the discovery document, did:web documents, and
 * the transparency log's checkpoint, tiles, entry bundles and latest-map buckets), and each is read back, as the edge
 * serves it from the static files and from Workers KV, with the reader the relying party's client reads it with.
 * A document the build writes that its own client refuses fails here.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { utf8 } from "../core/base64url.ts";
import { discoveredPeers } from "../core/client/discovered-peers.ts";
import type { Fetch, Transport } from "../core/http/fetch-following.ts";
import { resolve } from "../core/client/index.ts";
import { answerRefusal, latestLogged } from "../core/client/latest-logged.ts";
import { listStatus } from "../core/client/status-list-resolution.ts";
import { endpointStatus, type StatusRequest } from "../core/client/status-resolution.ts";
import { resolveDidWebKey } from "../core/did/did-web.ts";
import { STATUS_CODES } from "../core/status-list/credential.ts";
import { listStatusRef, listEntryRef } from "../core/status-list/list-entry-ref.ts";
import { parseVerifierKey } from "../core/tlog/note-keys.ts";
import { keyOnlyPolicy } from "../core/tlog/log-policy.ts";
import { statusPath } from "../core/umid-path.ts";
import { directoryReader } from "../edge/adapters/node.ts";
import { handleRequest } from "../edge/handler.ts";
import { KvRecords } from "../edge/kv-records.ts";
import type { RecordStore } from "../edge/records.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { FIXTURE_RESOLVER_URL, type Fixture, makeFixture } from "./support/fixture-content.ts";
import { kvPairs } from "./support/kv-files.ts";

const NOW = "2026-06-01T00:00:00Z";
const BASE = FIXTURE_RESOLVER_URL;

let fixture: Fixture;
before(() => {
  fixture = makeFixture();
});
after(() => fixture.cleanup());

/** The two stores the edge reads an output through: the static files, and the Workers KV pairs of the same build. */
function stores(): [string, RecordStore][] {
  const pairs = new Map(kvPairs(`${fixture.dist}-kv`).map((pair) => [pair.key, pair]));
  const kv = new KvRecords().reading({
    async getWithMetadata<M>(key: string) {
      const pair = pairs.get(key);
      if (pair === undefined) return { value: null, metadata: null };
      const bytes = pair.base64 === true ? Buffer.from(pair.value, "base64") : utf8(pair.value);
      return { value: new Uint8Array(bytes).buffer as ArrayBuffer, metadata: (pair.metadata ?? null) as M };
    },
  });
  return [
    ["static files", new StaticRecords().reading(directoryReader(fixture.dist))],
    ["Workers KV", kv],
  ];
}

/** The client's transport to the edge answering from `store` at BASE; nothing else answers. */
function transportTo(store: RecordStore): Transport {
  const fetch: Fetch = async (url, init) =>
    url.startsWith(`${BASE}/`)
      ? handleRequest({ method: init.method ?? "GET", url, headers: new Headers(init.headers) }, store)
      : new Response(null, { status: 404 });
  return { fetch, timeoutMs: 5_000 };
}

/** The fixture breaks these bodies in the static output after the build: the edge answers them 500 there. */
const corrupt = (umid: string) => umid === fixture.corruptMissing || umid === fixture.corruptAltered;

const requestTo = (store: RecordStore): StatusRequest => ({
  now: Date.parse(NOW),
  cache: undefined,
  transport: transportTo(store),
});

describe("every document a build serves reads back with the client's reader", () => {
  it("manifests and 410s: resolved with the log key, each proven the UMID's latest logged state", async () => {
    const keys = JSON.parse(readFileSync(join(fixture.content, "_keys.json"), "utf8")) as Record<string, string>;
    const logKey = readFileSync(join(fixture.content, "_log", "verifier"), "utf8").trim();
    for (const [name, store] of stores()) {
      const { fetch } = transportTo(store);
      for (const umid of [...fixture.published.keys(), ...fixture.revoked]) {
        if (name === "static files" && corrupt(umid)) continue;
        const result = await resolve(BASE, umid, { fetch, keys, logKey, offline: true, context: { now: NOW } });
        assert.ok("receipt" in result, `${name}: ${umid}: ${"reason" in result ? result.reason : ""}`);
        const { receipt } = result;
        assert.deepEqual(
          receipt.warnings.filter((w) => w.rule?.startsWith("log/")),
          [],
          `${name}: ${umid}`,
        );
        if (fixture.revoked.includes(umid)) assert.equal(receipt.revocationStatus, "revoked", `${name}: ${umid}`);
        else assert.equal(receipt.signatureCheck, "valid", `${name}: ${umid}`);
      }
    }
  });

  it("redirects: the log's latest entry of each names the Location served", async () => {
    const key = parseVerifierKey(readFileSync(join(fixture.content, "_log", "verifier"), "utf8").trim())!;
    for (const [name, store] of stores()) {
      const request = { ...requestTo(store), policy: keyOnlyPolicy(key), memory: undefined };
      for (const [umid, location] of fixture.redirects) {
        const logged = await latestLogged(BASE, umid, request);
        assert.ok(logged.ok, `${name}: ${umid}: ${logged.ok ? "" : logged.refusal.message}`);
        assert.equal(answerRefusal(logged, { kind: "redirect", location }), undefined, `${name}: ${umid}`);
      }
    }
  });

  it("status documents: each read as the status the rules give", async () => {
    for (const [name, store] of stores())
      for (const [umid, expected] of fixture.statuses) {
        if (name === "static files" && corrupt(umid)) continue;
        const answer = await endpointStatus(BASE + statusPath(umid), { "@id": umid }, requestTo(store));
        assert.equal(answer.revocation.status, expected.status, `${name}: ${umid}: ${answer.revocation.message}`);
      }
  });

  it("the status list: each allocated entry read as its code", async () => {
    const byCode = new Map(Object.entries(STATUS_CODES).map(([status, code]) => [code, status]));
    for (const [name, store] of stores())
      for (const [index, code] of fixture.statusList.codes) {
        const ref = listEntryRef(listStatusRef(fixture.statusList.url, index))!;
        const answer = await listStatus(ref, { ...requestTo(store), listKeys: undefined, floor: undefined });
        assert.equal(answer.revocation.status, byCode.get(code as 0 | 1 | 2), `${name}: ${index}`);
      }
  });

  it("the discovery document: its peers, as the client discovers them", async () => {
    for (const [name, store] of stores())
      assert.deepEqual(
        await discoveredPeers(BASE, requestTo(store)),
        { peers: (fixture.resolvers.peers as { url: string }[]).map((peer) => peer.url) },
        name,
      );
  });

  it("did:web documents: each keyRef resolved to its key", async () => {
    for (const [name, store] of stores())
      for (const { did, keys } of fixture.didDocuments.values())
        for (const [fragment, key] of keys) {
          const { transport, now } = requestTo(store);
          const resolved = await resolveDidWebKey(`${did}${fragment}`, { transport, cache: undefined, now });
          assert.ok(
            "publicKey" in resolved,
            `${name}: ${did}${fragment}: ${"reason" in resolved ? resolved.reason : ""}`,
          );
          const raw = createPublicKey(key).export({ format: "der", type: "spki" }).subarray(12);
          assert.deepEqual(Buffer.from(resolved.publicKey), raw, `${name}: ${did}${fragment}`);
        }
  });
});
