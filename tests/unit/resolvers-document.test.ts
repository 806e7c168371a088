/**
 * content/_resolvers.json checked as relying parties read it (scripts/check/resolvers-document.ts; EXT-OPT O5, issue
 * 27, section 3; issue 37, defect 3): check and the client read it with one reader (core/client/resolvers-document.ts), so
 * a document the client's discovery refuses whole fails check, or every relying party that discovers the peers would
 * find none.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { MAX_DISCOVERED_PEERS, readResolversDocument } from "../../core/client/resolvers-document.ts";
import { checkResolversDocument } from "../../scripts/check/resolvers-document.ts";

const dir = mkdtempSync(join(tmpdir(), "um-resolvers-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const rulesOf = (peers: unknown[], resolverUrl = "https://resolver.example/") => {
  writeFileSync(join(dir, "_resolvers.json"), JSON.stringify({ resolver: "did:web:resolver.example", peers }));
  return checkResolversDocument(dir, resolverUrl).diagnostics.map((d) => d.rule);
};
const peer = (url: string, i = 0) => ({ url, did: `did:web:p${i}.example` });

describe("the discovery document", () => {
  // Attack 27: peers a relying party cannot take as base URLs, or more than it reads, passed check.
  it("refuses a peer URL with a query, a fragment or credentials, as the client does", () => {
    for (const url of ["https://peer.example/?x=1", "https://peer.example/#top", "https://user:pw@peer.example/"])
      assert.deepEqual(rulesOf([{ url, did: "did:web:peer.example" }]), ["resolvers/bad-document"], url);
    assert.deepEqual(rulesOf([{ url: "https://peer.example/", did: "did:web:peer.example" }]), []);
  });

  it("refuses more peers than a relying party reads", () => {
    const peers = Array.from({ length: 1001 }, (_, i) => ({
      url: `https://p${i}.example/`,
      did: `did:web:p${i}.example`,
    }));
    assert.deepEqual(rulesOf(peers), ["limits/array-length"]);
  });

  // Issue 37, defect 3: check read the document with rules of its own, and passed what every client refuses whole.
  it("refuses a 17th peer, as every client does (MAX_DISCOVERED_PEERS)", () => {
    const peers = (n: number) => Array.from({ length: n }, (_, i) => peer(`https://p${i}.example/`, i));
    assert.deepEqual(rulesOf(peers(MAX_DISCOVERED_PEERS)), []);
    assert.deepEqual(rulesOf(peers(MAX_DISCOVERED_PEERS + 1)), ["resolvers/bad-document"]);
  });

  it("refuses a peer on a local or private address unless the resolver is on one (UM_RESOLVER_URL)", () => {
    for (const url of ["http://127.0.0.1:8080/", "https://[::ffff:127.0.0.1]:8443/", "https://0.0.0.0:8443/"]) {
      assert.deepEqual(rulesOf([peer(url)]), ["resolvers/bad-document"], url);
      // No UM_RESOLVER_URL: judged as the deployed resolver is, a remote one.
      assert.deepEqual(rulesOf([peer(url)], ""), ["resolvers/bad-document"], url);
      assert.deepEqual(rulesOf([peer(url)], "http://localhost:8787/"), [], url);
    }
  });

  it("takes what the client takes, and the client what it passes", () => {
    const text = JSON.stringify({ resolver: "did:web:resolver.example", peers: [peer("https://p.example/")] });
    const read = readResolversDocument(text, "https://resolver.example");
    assert.ok(read.ok);
    assert.deepEqual(read.document.peers, [peer("https://p.example/")]);
    for (const bad of [{ resolver: "did:web:resolver.example", peers: [peer("https://p.example/")], extra: 1 }])
      assert.equal(readResolversDocument(JSON.stringify(bad), "https://resolver.example").ok, false);
  });
});
