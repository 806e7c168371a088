/**
 * content/_resolvers.json checked as relying parties read it (scripts/check/resolvers-document.ts; EXT-OPT O5, issue
 * 27, section 3): a document the client's discovery refuses whole (core/client/resolvers-document.ts) must not pass
 * check, or every relying party that discovers the peers would find none.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { checkResolversDocument } from "../../scripts/check/resolvers-document.ts";

const dir = mkdtempSync(join(tmpdir(), "um-resolvers-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const rulesOf = (peers: unknown[]) => {
  writeFileSync(join(dir, "_resolvers.json"), JSON.stringify({ resolver: "did:web:resolver.example", peers }));
  return checkResolversDocument(dir).diagnostics.map((d) => d.rule);
};

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
});
