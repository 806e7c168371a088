/**
 * JCS against RFC 8785's test data; Ed25519 verification against Wycheproof and the
 * speccheck edge cases, with every verifier: Node's (check, build), WebCrypto's (the
 * evaluator, in any runtime) and the pure-JS fallback (the evaluator, where WebCrypto lacks
 * Ed25519), which must give the same verdicts.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { spkiPublicKey, type Ed25519Verdict } from "../../core/crypto/profile-a.ts";
import { pureEd25519Verify, pureSha256 } from "../../core/crypto/pure-crypto.ts";
import { hasEd25519, sha256, strictlyVerified, verifyEd25519 } from "../../core/crypto/runtime-crypto.ts";
import { ed25519PublicKey, ed25519Verify } from "../../scripts/crypto/profile-a.ts";
import { sharedPath, skipWithoutShared } from "../support/shared.ts";

describe("JCS (RFC 8785)", () => {
  const skip = skipWithoutShared("vectors/jcs/input");
  const names = skip ? [] : readdirSync(sharedPath("vectors/jcs/input")).sort();
  it("has vectors to run", { skip }, () => assert.ok(names.length >= 6));
  for (const name of names) {
    it(`canonicalizes ${name} to the expected bytes`, () => {
      const input = JSON.parse(readFileSync(sharedPath(`vectors/jcs/input/${name}`), "utf8"));
      const expected = readFileSync(sharedPath(`vectors/jcs/output/${name}`));
      assert.deepEqual(Buffer.from(canonicalize(input), "utf8"), expected);
    });
  }

  it("sorts members by UTF-16 code units, not by locale", () => {
    assert.equal(
      canonicalize({ b: 1, a: 2, B: 3, "\u{1F600}": 4, "\uFB33": 5 }),
      '{"B":3,"a":2,"b":1,"\u{1F600}":4,"\uFB33":5}',
    );
  });
  it("writes numbers as ECMAScript does", () => {
    assert.equal(
      canonicalize([-0, 1e21, 1e-7, 0.1, 123456789012345680000]),
      "[0,1e+21,1e-7,0.1,123456789012345680000]",
    );
  });
  it("writes what a plain reading of RFC 8785 writes, whatever the member names (differential)", () => {
    // Member names an object does not keep in the order they were added: array indices, and __proto__.
    const name = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 6 }),
      fc.constantFrom("0", "1", "2", "10", "01", "-1", "1a", "4294967295", "__proto__", "\u{1F600}", "\uFB33"),
    );
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tie("value"), { maxLength: 4 }),
        // Parsed from text, so that __proto__ is a member, as a parsed manifest's is.
        fc
          .array(fc.tuple(name, tie("value")), { maxLength: 6 })
          .map((members) =>
            JSON.parse(`{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`),
          ),
      ),
    }));
    const plainJcs = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(plainJcs).join(",")}]`;
      if (typeof v !== "object" || v === null) return JSON.stringify(v);
      const members = Object.keys(v).sort();
      return `{${members.map((k) => `${JSON.stringify(k)}:${plainJcs((v as Record<string, unknown>)[k])}`).join(",")}}`;
    };
    fc.assert(
      fc.property(value, (v) => canonicalize(v) === plainJcs(v)),
      { numRuns: 2000 },
    );
  });
  it("rejects values JCS cannot represent", () => {
    assert.throws(() => canonicalize({ a: "\uD800" }), TypeError);
    assert.throws(() => canonicalize({ a: [{ "\uDC00": 1 }] }), TypeError);
    assert.throws(() => canonicalize({ "1": "\uD800" }), TypeError);
    assert.throws(() => canonicalize([1, undefined]), TypeError);
    // Naming the number.
    assert.throws(
      () => canonicalize([Number.NaN]),
      (e: Error) => e instanceof TypeError && e.message.includes("NaN"),
    );
    assert.throws(
      () => canonicalize([Infinity]),
      (e: Error) => e instanceof TypeError && e.message.includes("Infinity"),
    );
  });
});

/** Each verifier, by the SPKI (standard base64) of the key. */
const VERIFIERS: Record<
  string,
  (spki: string, message: Uint8Array, signature: Uint8Array) => Ed25519Verdict | Promise<Ed25519Verdict>
> = {
  node: (spki, message, signature) => ed25519Verify(ed25519PublicKey(spki)!, message, signature),
  webcrypto: (spki, message, signature) => verifyEd25519(spkiPublicKey(spki)!, message, signature),
  fallback: (spki, message, signature) => strictlyVerified(pureEd25519Verify, spkiPublicKey(spki)!, message, signature),
};

describe("the evaluator's choice of verifier", () => {
  it("takes WebCrypto's where it has Ed25519, as Node's does", async () => {
    assert.equal(await hasEd25519(crypto.subtle), true);
  });
  it("falls back to pure JS where WebCrypto refuses Ed25519 keys, as an older browser's does", async () => {
    const withoutEd25519 = {
      importKey: async () => {
        throw new DOMException("Unrecognized name.", "NotSupportedError");
      },
    } as unknown as typeof crypto.subtle;
    assert.equal(await hasEd25519(withoutEd25519), false);
  });
  it("hashes alike with WebCrypto's SHA-256 and the fallback's", async () => {
    for (const text of ["", "abc", "x".repeat(1000)]) {
      const data = new TextEncoder().encode(text);
      assert.deepEqual(await pureSha256(data), await sha256(data));
    }
  });
});

interface WycheproofGroup {
  publicKeyDer: string;
  tests: { tcId: number; comment: string; msg: string; sig: string; result: "valid" | "invalid" }[];
}

describe("Ed25519 (Wycheproof)", () => {
  const skip = skipWithoutShared("vectors/ed25519/wycheproof_ed25519_test.json");
  const groups: WycheproofGroup[] = skip
    ? []
    : JSON.parse(readFileSync(sharedPath("vectors/ed25519/wycheproof_ed25519_test.json"), "utf8")).testGroups;
  it("has vectors to run", { skip }, () => assert.ok(groups.length > 0));
  for (const group of groups) {
    const spki = Buffer.from(group.publicKeyDer, "hex").toString("base64");
    for (const t of group.tests) {
      it(`tc${t.tcId} ${t.result}${t.comment ? `: ${t.comment}` : ""}`, async () => {
        assert.ok(ed25519PublicKey(spki) && spkiPublicKey(spki), "the SPKI decodes");
        for (const [name, verify] of Object.entries(VERIFIERS)) {
          assert.equal(
            (await verify(spki, Buffer.from(t.msg, "hex"), Buffer.from(t.sig, "hex"))) === "valid",
            t.result === "valid",
            name,
          );
        }
      });
    }
  }

  it("decodes SPKI keys strictly", () => {
    const good = "MCowBQYDK2VwAyEAvWsBD/ov/5zQwtkxvssqOFz/Ejca8C0NfnAJ9z0iBZY=";
    assert.ok(ed25519PublicKey(good));
    assert.deepEqual(spkiPublicKey(good), Uint8Array.from(Buffer.from(good, "base64").subarray(12)));
    const bad: [string, string][] = [
      [good.slice(0, -1), "padding missing"],
      [good.replace("/", "_"), "base64url alphabet"],
      [` ${good}`, "whitespace"],
      [`${good.slice(0, -2)}Z=`, "non-zero bits before the padding"],
      ["MCowBQYDK2VuAyEAvWsBD/ov/5zQwtkxvssqOFz/Ejca8C0NfnAJ9z0iBZY=", "X25519 key"],
    ];
    for (const [spki, why] of bad) {
      assert.equal(spkiPublicKey(spki), undefined, why);
      assert.equal(ed25519PublicKey(spki), undefined, why);
    }
  });
});

describe("Ed25519 edge cases (speccheck): a strict verifier's verdicts", () => {
  const skip = skipWithoutShared("vectors/ed25519-speccheck/cases.json");
  const cases: { message: string; pub_key: string; signature: string }[] = skip
    ? []
    : JSON.parse(readFileSync(sharedPath("vectors/ed25519-speccheck/cases.json"), "utf8"));
  // ../shared/vectors/ed25519-speccheck/README.md: only case 3 (mixed-order A and R) is accepted;
  // 0 and 1 have a small-order key, the rest a bad signature.
  const expected = [
    "weak-key",
    "weak-key",
    "invalid",
    "valid",
    "invalid",
    "invalid",
    "invalid",
    "invalid",
    "invalid",
    "invalid",
  ];
  it("has the ten cases", { skip }, () => assert.equal(cases.length, 10));
  cases.forEach((c, i) => {
    it(`case ${i}: ${expected[i]}`, async () => {
      const spki = Buffer.concat([
        Buffer.from("302a300506032b6570032100", "hex"),
        Buffer.from(c.pub_key, "hex"),
      ]).toString("base64");
      for (const [name, verify] of Object.entries(VERIFIERS)) {
        assert.equal(
          await verify(spki, Buffer.from(c.message, "hex"), Buffer.from(c.signature, "hex")),
          expected[i],
          name,
        );
      }
    });
  });
});
