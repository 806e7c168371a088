/**
 * Keys named by DIDs, under random and mutated input (issue 37, defect 10): did:jwk and did:key keyRefs resolved
 * locally, did:web documents as a host serves them, and a manifest whose keyRef is a damaged did:jwk evaluated. Each
 * answers with a key or a fault of its kind (the receipt's `um:reason:key:<fault>`), never an exception.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { resolveKeyRefLocally } from "../../core/did/resolve-key-ref.ts";
import { resolveDidWebKey } from "../../core/did/did-web.ts";
import { evaluate } from "../../core/evaluate/index.ts";
import { WARNING_CODE } from "../../core/evaluate/receipt.ts";
import { didDocumentOf, didJwkOf, didKeyRef, rawPublicKey } from "../support/did.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { DEEP_JSON, documentText, excerpt, holds, mutatedText } from "../support/properties.ts";

const key = newKey();
const jwk = { kty: "OKP", crv: "Ed25519", x: Buffer.from(rawPublicKey(key)).toString("base64url") };
const LOCAL_KINDS = ["resolved", "malformed", "unsupported"];

/** A did:jwk keyRef whose JWK is `text`, base64url'd as the method says, with the DID's one fragment or another. */
const didJwkText = (text: string, fragment: string) =>
  `did:jwk:${Buffer.from(text).toString("base64url")}${fragment === "" ? "" : `#${fragment}`}`;

/** A JWK nested thousands deep overflowed the parser's stack (issue 37, defect 6): it is tried apart, below. */
const jwkText = documentText(jwk);

describe("properties: DIDs as keyRefs", () => {
  it("a did:jwk keyRef resolves to a key or a fault, whatever its JWK holds", async () => {
    assert.equal(resolveKeyRefLocally(didJwkOf(jwk)).kind, "resolved");
    await holds(
      "did:jwk",
      fc.property(jwkText, fc.constantFrom("", "0", "1", "\ud800"), (text, fragment) => {
        const resolved = resolveKeyRefLocally(didJwkText(text, fragment));
        assert.ok(LOCAL_KINDS.includes(resolved.kind), excerpt(text));
      }),
      400,
    );
  });

  it("a did:jwk keyRef nested thousands deep is malformed, and its manifest rejected", async () => {
    const manifest = signed(manifestFor("urn:property:deep-jwk"), key) as { signature: Record<string, unknown> };
    for (const text of DEEP_JSON) {
      assert.equal(resolveKeyRefLocally(didJwkText(text, "0")).kind, "malformed", excerpt(text));
      const deep = { ...manifest, signature: { ...manifest.signature, keyRef: didJwkText(text, "0") } };
      assert.equal((await evaluate(JSON.stringify(deep), { now: "2026-06-01T00:00:00Z" })).outcome, "rejected");
    }
  });

  it("a did:key keyRef, and any text as a keyRef, resolves to a key or a fault", async () => {
    const keyRef = didKeyRef(key);
    assert.equal(resolveKeyRefLocally(keyRef).kind, "resolved");
    await holds(
      "did:key",
      fc.property(fc.oneof(mutatedText(keyRef), fc.string({ unit: "binary", maxLength: 80 })), (text) => {
        assert.ok(LOCAL_KINDS.includes(resolveKeyRefLocally(text).kind), excerpt(text));
      }),
      600,
    );
  });

  it("a did:web document a host serves gives the key or a fault, whatever it holds", async () => {
    const did = "did:web:fixture.example";
    const document = didDocumentOf(did, key);
    const served = (body: string) => ({
      transport: {
        fetch: async () => new Response(body, { headers: { "content-type": "application/did+json" } }),
        timeoutMs: 1_000,
      },
      cache: undefined,
      now: Date.parse("2026-06-01T00:00:00Z"),
    });
    assert.ok("publicKey" in (await resolveDidWebKey(`${did}#key-1`, served(JSON.stringify(document)))));
    await holds(
      "DID document",
      fc.asyncProperty(
        documentText(document),
        fc.constantFrom(`${did}#key-1`, did, `${did}#other`),
        async (text, ref) => {
          const resolved = await resolveDidWebKey(ref, served(text));
          assert.ok("publicKey" in resolved || typeof resolved.fault === "string", excerpt(text));
        },
      ),
      400,
    );
  });

  it("a manifest whose keyRef is a damaged did:jwk is evaluated to a receipt", async () => {
    const manifest = signed(manifestFor("urn:property:did-jwk"), key) as { signature: Record<string, unknown> };
    await holds(
      "evaluate with a did:jwk keyRef",
      fc.asyncProperty(jwkText, async (text) => {
        const damaged = { ...manifest, signature: { ...manifest.signature, keyRef: didJwkText(text, "0") } };
        const receipt = await evaluate(JSON.stringify(damaged), { now: "2026-06-01T00:00:00Z" });
        for (const warning of receipt.warnings) assert.match(warning.code, WARNING_CODE, excerpt(text));
      }),
      150,
    );
  });
});
