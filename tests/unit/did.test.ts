/**
 * Resolving keyRefs locally (core/did): did:key and did:jwk against the W3C CCG did:key
 * vectors and the vc-di-eddsa key pair (each DID must name the key its seed or private
 * key makes, the key its document gives), did:jwk made here, and every way a DID of
 * either method can name no Ed25519 key.
 */
import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { decodeBase58btc, encodeBase58btc as encodeBase58btcUnderTest } from "../../core/did/base58btc.ts";
import { ed25519DidKey } from "../../core/did/did-key.ts";
import { didWebDocumentUrl } from "../../core/did/did-web-url.ts";
import { resolveKeyRefLocally } from "../../core/did/resolve-key-ref.ts";
import { didJwkOf, didKeyOf, encodeBase58btc } from "../support/did.ts";
import { sharedPath, skipWithoutShared } from "../support/shared.ts";

/** The Ed25519 public key of a 32-byte seed, by Node's crypto (PKCS #8 around the seed). */
function publicKeyOfSeed(seed: Uint8Array): Buffer {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const key = createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }));
  return key.export({ format: "der", type: "spki" }).subarray(12);
}

function resolvedKey(keyRef: string): Buffer {
  const local = resolveKeyRefLocally(keyRef);
  assert.equal(local.kind, "resolved", JSON.stringify(local));
  return Buffer.from((local as { publicKey: Uint8Array }).publicKey);
}

/** What a CCG did:key vector gives: the seed, and the document's first (Ed25519) verification method. */
interface CcgVector {
  seed: string;
  didDocument: {
    verificationMethod: { id: string; publicKeyBase58?: string; publicKeyJwk?: Record<string, string> }[];
  };
}

const key32 = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);

describe("base58btc", () => {
  it("decodes what the standard's arithmetic encodes, leading zero bytes as leading 1s", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 48 }), fc.nat(3), (bytes, zeros) => {
        const input = Uint8Array.from([...new Uint8Array(zeros), ...bytes]);
        assert.deepEqual(decodeBase58btc(encodeBase58btc(input)), input);
      }),
    );
    assert.deepEqual(decodeBase58btc("11"), new Uint8Array(2));
    assert.deepEqual(decodeBase58btc(""), new Uint8Array(0));
  });
  it("encodes as the standard's arithmetic does, leading zero bytes as leading 1s", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 48 }), fc.nat(3), (bytes, zeros) => {
        const input = Uint8Array.from([...new Uint8Array(zeros), ...bytes]);
        assert.equal(encodeBase58btcUnderTest(input), encodeBase58btc(input));
      }),
    );
  });
  it("refuses characters outside the alphabet: 0, O, I, l, base64's, non-ASCII", () => {
    for (const text of ["0", "O", "I", "l", "+", "/", "=", " 2", "2é"]) assert.equal(decodeBase58btc(text), undefined);
  });
});

describe("did:key (Ed25519)", () => {
  const vectors = "peer/w3c-ccg/did-method-key/test-vectors/ed25519-x25519.json";
  const skip = skipWithoutShared(vectors);
  const entries = skip ? [] : Object.entries(JSON.parse(readFileSync(sharedPath(vectors), "utf8")));
  it("has the CCG vectors to run", { skip }, () => assert.ok(entries.length >= 5));
  for (const [did, entry] of entries as [string, CcgVector][]) {
    it(`${did} names the key of its seed and of its document`, () => {
      const method = entry.didDocument.verificationMethod[0]!;
      const documented =
        method.publicKeyJwk === undefined
          ? Buffer.from(decodeBase58btc(method.publicKeyBase58!)!)
          : Buffer.from(method.publicKeyJwk.x!, "base64url");
      const seeded = publicKeyOfSeed(Buffer.from(entry.seed, "hex"));
      assert.deepEqual([documented, resolvedKey(method.id)], [seeded, seeded]);
      assert.deepEqual(resolvedKey(did), seeded);
      if (method.publicKeyJwk !== undefined) assert.deepEqual(resolvedKey(didJwkOf(method.publicKeyJwk)), seeded);
    });
  }

  const pair = "peer/w3c/vc-di-eddsa/TestVectors/keyPair.json";
  it("the vc-di-eddsa key pair's publicKeyMultibase names the key of its private key", {
    skip: skipWithoutShared(pair),
  }, () => {
    const { publicKeyMultibase, privateKeyMultibase } = JSON.parse(readFileSync(sharedPath(pair), "utf8"));
    const secret = decodeBase58btc(privateKeyMultibase.slice(1))!;
    assert.deepEqual([...secret.subarray(0, 2)], [0x80, 0x26]); // multicodec ed25519-priv
    assert.deepEqual(
      resolvedKey(`did:key:${publicKeyMultibase}#${publicKeyMultibase}`),
      publicKeyOfSeed(secret.subarray(2)),
    );
  });

  it("refuses a DID that names no Ed25519 key, and a fragment naming another key", () => {
    const did = didKeyOf(key32);
    const other = didKeyOf(key32.map((b) => b ^ 1)).slice("did:key:".length);
    const malformed = {
      "not base58btc": `did:key:m${Buffer.from([0xed, 0x01, ...key32]).toString("base64")}`,
      "bad base58": `${did.slice(0, -1)}0`,
      "X25519 multicodec": didKeyOf(key32, [0xec, 0x01]),
      "31 bytes": didKeyOf(key32.subarray(1)),
      "33 bytes": didKeyOf(Uint8Array.from([...key32, 0])),
      "far too long": `${did}${"2".repeat(100)}`,
      "another key's fragment": `${did}#${other}`,
      "a named fragment": `${did}#key-1`,
      "a path": `${did}/path`,
      "a query": `${did}?versionId=1`,
      "an old version prefix": `did:key:1:${did.slice("did:key:".length)}`,
      "an empty id": "did:key:",
    };
    for (const [what, keyRef] of Object.entries(malformed))
      assert.deepEqual(resolveKeyRefLocally(keyRef).kind, "malformed", what);
    assert.deepEqual(resolvedKey(did), Buffer.from(key32));
    assert.deepEqual(resolvedKey(`${did}#${did.slice("did:key:".length)}`), Buffer.from(key32));
  });
});

describe("the did:key of a key (keygen prints it)", () => {
  it("is the did:key that resolves to that key", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (publicKey) => {
        const did = ed25519DidKey(publicKey);
        assert.equal(did, didKeyOf(publicKey));
        assert.deepEqual(resolveKeyRefLocally(`${did}#${did.slice("did:key:".length)}`), {
          kind: "resolved",
          publicKey,
        });
      }),
    );
  });
});

describe("did:jwk (Ed25519)", () => {
  const jwk = { kty: "OKP", crv: "Ed25519", x: Buffer.from(key32).toString("base64url") };
  it("names the JWK's x, with other members and without a fragment or with #0", () => {
    for (const keyRef of [didJwkOf(jwk), `${didJwkOf(jwk)}#0`, didJwkOf({ ...jwk, use: "sig", kid: "k" })])
      assert.deepEqual(resolvedKey(keyRef), Buffer.from(key32));
  });
  it("refuses a private d, another kty or crv, a wrong x, a fragment but #0, bad encodings", () => {
    const malformed = {
      "private d": didJwkOf({ ...jwk, d: jwk.x }),
      "kty EC": didJwkOf({ ...jwk, kty: "EC" }),
      "crv X25519": didJwkOf({ ...jwk, crv: "X25519" }),
      "x of 31 bytes": didJwkOf({ ...jwk, x: Buffer.from(key32.subarray(1)).toString("base64url") }),
      "x padded": didJwkOf({ ...jwk, x: Buffer.from(key32).toString("base64") }),
      "x missing": didJwkOf({ kty: "OKP", crv: "Ed25519" }),
      "fragment 1": `${didJwkOf(jwk)}#1`,
      "not JSON": `did:jwk:${Buffer.from("{kty").toString("base64url")}`,
      "an array": didJwkOf([jwk]),
      "duplicate x": `did:jwk:${Buffer.from(`{"kty":"OKP","crv":"Ed25519","x":"${jwk.x}","x":"${jwk.x}"}`).toString("base64url")}`,
      "padded base64": `${didJwkOf(jwk)}=`,
    };
    for (const [what, keyRef] of Object.entries(malformed))
      assert.deepEqual(resolveKeyRefLocally(keyRef).kind, "malformed", what);
  });
  it("refuses a JWK nested deeper than a manifest may be, as malformed: no stack overflow", () => {
    // 20,000 levels is a 53 KB keyRef, well within a manifest's bytes; no signature is needed to reach it.
    for (const nested of ["[".repeat(20_000), `{"kty":"OKP","crv":"Ed25519","a":${"[".repeat(20_000)}`])
      assert.equal(resolveKeyRefLocally(`did:jwk:${Buffer.from(nested).toString("base64url")}`).kind, "malformed");
  });
});

describe("other keyRefs", () => {
  it("are unsupported, naming the DID method when there is one", () => {
    assert.deepEqual(resolveKeyRefLocally("did:web:alice.example#key-1"), { kind: "unsupported", method: "web" });
    assert.deepEqual(resolveKeyRefLocally("did:example:alice-v04#keys-1"), { kind: "unsupported", method: "example" });
    assert.deepEqual(resolveKeyRefLocally("https://alice.example/key"), { kind: "unsupported" });
    assert.deepEqual(resolveKeyRefLocally("DID:KEY:z6Mk"), { kind: "unsupported" });
  });
});

describe("did:web document URLs (W3C CCG did:web, Read (Resolve))", () => {
  it("maps the specification's examples: /.well-known for a bare host, a path's segments, a port's %3A", () => {
    const url = (did: string) => {
      const located = didWebDocumentUrl(did);
      return "url" in located ? located.url.href : undefined;
    };
    assert.equal(url("did:web:w3c-ccg.github.io"), "https://w3c-ccg.github.io/.well-known/did.json");
    assert.equal(url("did:web:w3c-ccg.github.io:user:alice"), "https://w3c-ccg.github.io/user/alice/did.json");
    assert.equal(url("did:web:example.com%3A3000:user:alice"), "https://example.com:3000/user/alice/did.json");
    // localhost alone is read over http:, for a resolver tried on its publisher's machine.
    assert.equal(url("did:web:localhost%3a8787"), "http://localhost:8787/.well-known/did.json");
    assert.equal(url("did:web:Example.COM:Users:a%20b"), "https://example.com/Users/a%20b/did.json");
  });
  it("maps nothing it cannot: an IP address, another method, an empty or dot segment, an encoded slash", () => {
    for (const did of [
      "did:web:192.0.2.1",
      "did:web:0x7f.1",
      "did:web:[::1]",
      "did:key:z6Mk",
      "did:web:",
      "did:web:example.com:",
      "did:web:example.com::a",
      "did:web:example.com:..",
      "did:web:example.com:%2e%2E",
      "did:web:example.com:a%2Fb",
      "did:web:example.com:a%5cb",
      "did:web:example.com:a/b",
      "did:web:example.com%3A99999",
      "did:web:-example.com",
      "did:web:user@example.com",
      "did:web:exa mple.com",
      "did:web:xn--a.com",
    ])
      assert.ok("fault" in didWebDocumentUrl(did), did);
  });
});
