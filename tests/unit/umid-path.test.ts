import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { decodeBase64url, encodeBase64url } from "../../core/base64url.ts";
import { shardPath } from "../../edge/records.ts";
import { fnv1a32 } from "../../edge/shard-file.ts";
import { parseUmidPath, pathnameOf, umidPath } from "../../core/umid-path.ts";

/** The pathname a runtime hands the handler for a request target, after URL parsing. */
const parsedPathname = (path: string) => new URL(path, "http://resolver.test").pathname;
const wellFormed = fc.string({ unit: "binary", minLength: 1, maxLength: 300 }).filter((s) => s.isWellFormed());

describe("parseUmidPath", () => {
  const cases: [string, ReturnType<typeof parseUmidPath>][] = [
    ["/", { error: "missing UMID" }],
    ["", { error: "missing UMID" }],
    ["/a/b", { error: "unexpected extra path segments" }],
    ["/a/", { error: "unexpected extra path segments" }],
    ["//", { error: "unexpected extra path segments" }],
    ["/b64u:", { error: "empty UMID" }],
    ["/b64u:a", { error: "invalid b64u UMID encoding" }],
    ["/b64u:QR", { error: "invalid b64u UMID encoding" }],
    ["/b64u:QQ==", { error: "invalid b64u UMID encoding" }],
    ["/b64u:QQ%3D%3D", { error: "invalid b64u UMID encoding" }],
    ["/b64u:_w", { error: "invalid b64u UMID encoding" }],
    ["/b64u:7aCA", { error: "invalid b64u UMID encoding" }],
    ["/%", { error: "invalid UMID encoding" }],
    ["/%zz", { error: "invalid UMID encoding" }],
    ["/%C3", { error: "invalid UMID encoding" }],
    ["/%ED%A0%80", { error: "invalid UMID encoding" }],
    ["/urn:uuid:1", { umid: "urn:uuid:1" }],
    ["/a%2Fb%3Fc%23d%20e%25", { umid: "a/b?c#d e%" }],
    ["/b64u:YS9i", { umid: "a/b" }],
    ["/b64u%3AYS9i", { umid: "b64u:YS9i" }],
    ["/B64U:YS9i", { umid: "B64U:YS9i" }],
    ["/b64u:8J-agA", { umid: "🚀" }],
  ];
  for (const [path, expected] of cases) {
    it(`${JSON.stringify(path)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(parseUmidPath(path), expected));
  }

  it("reads back any UMID from its auto path, as a runtime's URL parser delivers it", () => {
    fc.assert(
      fc.property(wellFormed, (umid) => assert.deepEqual(parseUmidPath(parsedPathname(umidPath(umid))), { umid })),
      { numRuns: 2000 },
    );
  });
  it("reads back any UMID from its b64u path", () => {
    fc.assert(
      fc.property(wellFormed, (umid) =>
        assert.deepEqual(parseUmidPath(parsedPathname(umidPath(umid, "b64u"))), { umid }),
      ),
      { numRuns: 2000 },
    );
  });
  it("reads back the UMIDs direct mode cannot carry", () => {
    for (const umid of [".", "..", "health", "b64u:x", "b64u:"]) {
      assert.ok(umidPath(umid).startsWith("/b64u:"), umid);
      assert.deepEqual(parseUmidPath(parsedPathname(umidPath(umid))), { umid });
    }
  });
});

describe("pathnameOf", () => {
  // Characters where URL parsing differs from taking the text as it is, and plain ones.
  const target = fc.string({
    unit: fc.constantFrom(..."./\\?#%2eE:@ !$&'()*+,;=~-_aZ09\"<>`{}^|[]\t\u00e9\u{1F680}".split(/(?:)/u)),
    maxLength: 12,
  });
  it("gives what URL parsing gives, for any request target", () => {
    for (const origin of ["http://localhost", "https://resolver.test:8443", "http://[::1]:80"]) {
      fc.assert(
        fc.property(target, (path) =>
          assert.equal(pathnameOf(`${origin}/${path}`), new URL(`${origin}/${path}`).pathname),
        ),
        { numRuns: 3000 },
      );
    }
  });
  it("takes a plain segment as it is, and normalizes dot segments and encodings", () => {
    assert.equal(pathnameOf("http://x/urn:uuid:1"), "/urn:uuid:1");
    assert.equal(pathnameOf("http://x/%2e"), "/");
    assert.equal(pathnameOf("http://x/.."), "/");
    assert.equal(pathnameOf("http://x/a b"), "/a%20b");
    assert.equal(pathnameOf("http://x/a?q#f"), "/a");
    assert.equal(pathnameOf("http://x/a\\b"), "/a/b");
  });
});

describe("base64url", () => {
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) =>
        assert.deepEqual(decodeBase64url(encodeBase64url(bytes)), bytes),
      ),
    );
  });
  it("accepts exactly one spelling per byte string", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/".split("")),
          maxLength: 40,
        }),
        (text) => {
          const bytes = decodeBase64url(text);
          if (bytes !== undefined) assert.equal(encodeBase64url(bytes), text);
        },
      ),
      { numRuns: 5000 },
    );
  });
  it("matches Node's encoder", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) =>
        assert.equal(encodeBase64url(bytes), Buffer.from(bytes).toString("base64url")),
      ),
    );
  });
});

describe("index shards", () => {
  it("are named by FNV-1a of the UTF-8 bytes: lower-case hex, 4096 of them", () => {
    // FNV-1a of no bytes is its offset basis, 0x811c9dc5; of "a", 0xe40c292c.
    assert.equal(shardPath(""), "index/811.json");
    assert.equal(shardPath("a"), "index/e40.json");
    fc.assert(fc.property(wellFormed, (umid) => assert.match(shardPath(umid), /^index\/[0-9a-f]{3}\.json$/)));
  });
  it("hash a UMID's UTF-8 bytes, whatever its characters", () => {
    const overBytes = (text: string) =>
      new TextEncoder().encode(text).reduce((hash, byte) => Math.imul(hash ^ byte, 0x01000193), 0x811c9dc5) >>> 0;
    fc.assert(
      fc.property(wellFormed, (umid) => assert.equal(fnv1a32(umid), overBytes(umid))),
      { numRuns: 3000 },
    );
    // FNV-1a of "foobar" (the FNV authors' test vectors).
    assert.equal(fnv1a32("foobar"), 0xbf9cf968);
  });
  it("spread UMIDs evenly", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const path = shardPath(`urn:uuid:${String(i).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`);
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
    assert.equal(counts.size, 4096);
    assert.ok(Math.max(...counts.values()) < 3 * (100_000 / 4096), `fullest shard: ${Math.max(...counts.values())}`);
  });
});
