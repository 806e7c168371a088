/**
 * The client's readers under mutated answers (issue 37, defect 10): `resolve()` of manifest-resolver/client against a
 * resolver whose manifest, status document or discovery document (`/.well-known/um-resolvers`) is damaged. It is
 * documented to throw only for a bad base URL or context: every fault of an answer is in the result, a receipt whose
 * warnings carry `um:reason:*` codes, or a reason the UMID could not be resolved.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { resolve } from "../../core/client/index.ts";
import { WARNING_CODE } from "../../core/evaluate/receipt.ts";
import { RESOLVERS_PATH, statusPath, umidPath } from "../../core/umid-path.ts";
import { statusRefFor } from "../../core/validate/status-ref.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { documentText, excerpt, holds } from "../support/properties.ts";

const BASE = "https://resolver.example";
const UMID = "urn:property:client";
const NOW = "2026-06-01T00:00:00Z";
const manifest = (() => {
  const m = signed(manifestFor(UMID), newKey()) as { signature: Record<string, unknown> };
  return { ...m, signature: { ...m.signature, statusRef: statusRefFor(BASE, UMID) } };
})();
const statusDocument = {
  manifestId: UMID,
  status: "active",
  updatedAt: "2026-01-01T00:00:00Z",
  cursor: "0001767225600000",
  nextCheck: "PT10M",
};
const discovery = {
  resolver: "did:web:resolver.example",
  peers: [{ url: "https://peer.example/", did: "did:web:peer.example" }],
};

/** The resolver's answers, by URL: each a JSON body. */
const HONEST = new Map<string, string>([
  [BASE + umidPath(UMID), JSON.stringify(manifest)],
  [BASE + statusPath(UMID), JSON.stringify(statusDocument)],
  [BASE + RESOLVERS_PATH, JSON.stringify(discovery)],
]);
const SAMPLES = new Map<string, unknown>([
  [BASE + umidPath(UMID), manifest],
  [BASE + statusPath(UMID), statusDocument],
  [BASE + RESOLVERS_PATH, discovery],
]);

function resolverAnswering(answers: ReadonlyMap<string, string>) {
  return async (url: string | URL | Request) => {
    const body = answers.get(String(url));
    if (body !== undefined) return new Response(body, { headers: { "content-type": "application/json" } });
    // A peer, or anything else asked: not there.
    return new Response('{"error":"not_found"}', { status: 404, headers: { "content-type": "application/json" } });
  };
}

const resolveWith = (answers: ReadonlyMap<string, string>) =>
  resolve(BASE, UMID, {
    context: { now: NOW, omitProcessedAt: true },
    fetch: resolverAnswering(answers),
    // The signer's did:web is not resolved: DID documents are tried in did.test.ts.
    offline: true,
    federateDiscover: true,
  });

describe("properties: the client's readers", () => {
  it("resolve() answers a damaged manifest, status or discovery document with a receipt or a reason", async () => {
    const honest = await resolveWith(HONEST);
    assert.ok("receipt" in honest && honest.receipt.outcome !== "rejected", JSON.stringify(honest));
    assert.equal(honest.receipt.revocationStatus, "active");
    const damaged = fc
      .constantFrom(...SAMPLES.keys())
      .chain((url) => documentText(SAMPLES.get(url)).map((text) => [url, text] as const));
    await holds(
      "resolve()",
      fc.asyncProperty(damaged, async ([url, text]) => {
        const resolution = await resolveWith(new Map([...HONEST, [url, text]]));
        if ("receipt" in resolution)
          for (const warning of resolution.receipt.warnings) assert.match(warning.code, WARNING_CODE, excerpt(text));
        else assert.equal(typeof resolution.reason, "string", excerpt(text));
      }),
      250,
    );
  });
});
