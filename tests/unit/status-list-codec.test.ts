/**
 * The Bitstring Status List codec and credential (core/status-list/): entries two bits
 * each from the left-most bit, GZIP and multibase base64url, the Recommendation's minimum
 * length, and a reader that refuses what is not a list it can use.
 */
import assert from "node:assert/strict";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, it } from "node:test";
import { decodeBase64url, encodeBase64url } from "../../core/base64url.ts";
import {
  decodeStatusList,
  encodeStatusList,
  MAX_DECODED_BYTES,
  STATUS_LIST_BYTES,
  STATUS_LIST_ENTRIES,
  statusBitstring,
} from "../../core/status-list/bitstring.ts";
import { readStatusListCredential, statusListCredential } from "../../core/status-list/credential.ts";
import { listEntryRef } from "../../core/status-list/list-entry-ref.ts";

/** What JSON.parse gives: the breakages below reach into any member. */
type Parsed = ReturnType<typeof JSON.parse>;

const problemOf = async (encoded: string) => {
  const decoded = await decodeStatusList(encoded);
  return "problem" in decoded ? decoded.problem : "decoded";
};

describe("status list bitstring", () => {
  it("puts entry 0 in the left-most bits and reads back every value", async () => {
    const bits = statusBitstring([
      [0, 2],
      [1, 1],
      [5, 3],
      [STATUS_LIST_ENTRIES - 1, 1],
    ]);
    assert.equal(bits.length, STATUS_LIST_BYTES);
    assert.equal(bits[0], 0b1001_0000);
    assert.equal(bits[1], 0b0011_0000);
    assert.equal(bits[STATUS_LIST_BYTES - 1], 0b0000_0001);
    const encoded = await encodeStatusList(bits);
    assert.match(encoded, /^u[A-Za-z0-9_-]+$/);
    assert.deepEqual(new Uint8Array(gunzipSync(decodeBase64url(encoded.slice(1))!)), bits);
    const decoded = await decodeStatusList(encoded);
    assert.ok(!("problem" in decoded));
    assert.equal(decoded.entries, STATUS_LIST_ENTRIES);
    assert.deepEqual(
      [0, 1, 2, 5, STATUS_LIST_ENTRIES - 1].map((i) => decoded.codeAt(i)),
      [2, 1, 0, 3, 1],
    );
    assert.throws(() => decoded.codeAt(STATUS_LIST_ENTRIES), RangeError);
  });

  it("refuses a list shorter than 131,072 entries, one not multibase u, not GZIP, or a bomb", async () => {
    const short = `u${encodeBase64url(gzipSync(new Uint8Array(STATUS_LIST_BYTES / 2)))}`;
    assert.match(await problemOf(short), /STATUS_LIST_LENGTH_ERROR/);
    assert.match(await problemOf("zabc"), /multibase/);
    assert.match(await problemOf("uAAAA"), /GZIP/);
    const bomb = `u${encodeBase64url(gzipSync(new Uint8Array(MAX_DECODED_BYTES + 1)))}`;
    assert.match(await problemOf(bomb), /inflates to more than/);
  });

  it("refuses an index outside the list when encoding", () => {
    assert.throws(() => statusBitstring([[STATUS_LIST_ENTRIES, 1]]), RangeError);
    assert.throws(() => statusBitstring([[-1, 1]]), RangeError);
  });
});

describe("status list credential", () => {
  const fields = {
    url: "https://r.example/.well-known/manifest-resolver/status-list/abc",
    issuer: "https://r.example/",
    validFrom: "2026-11-01T00:00:00.000Z",
    ttlMs: 300_000,
    encodedList: "uH4sI",
  };

  it("reads back what it writes, each value meaning its status", () => {
    const read = readStatusListCredential(statusListCredential(fields));
    assert.ok(!("problem" in read));
    assert.equal(read.id, fields.url);
    assert.equal(read.ttlMs, 300_000);
    assert.deepEqual(
      ([0, 1, 2, 3] as const).map((code) => read.meaning(code)),
      ["active", "suspended", "revoked", undefined],
    );
  });

  const breakages: [string, (credential: Parsed) => void, RegExp][] = [
    ["another type", (c) => (c.type = ["VerifiableCredential"]), /type/],
    ["a v1 context", (c) => (c["@context"] = ["https://www.w3.org/2018/credentials/v1"]), /@context/],
    ["another purpose", (c) => (c.credentialSubject.statusPurpose = "revocation"), /statusPurpose/],
    ["statusSize 1", (c) => (c.credentialSubject.statusSize = 1), /statusSize/],
    ["three messages", (c) => c.credentialSubject.statusMessage.pop(), /statusMessage/],
    [
      "a value given twice",
      (c) => (c.credentialSubject.statusMessage = [0, 0, 1, 2].map((v) => ({ status: `0x${v}`, message: "active" }))),
      /statusMessage/,
    ],
    ["a validUntil not a date", (c) => (c.validUntil = "tomorrow"), /validUntil/],
    ["a negative ttl", (c) => (c.credentialSubject.ttl = -1), /ttl/],
  ];
  for (const [what, breakIt, problem] of breakages) {
    it(`refuses ${what}`, () => {
      const credential = JSON.parse(JSON.stringify(statusListCredential(fields)));
      breakIt(credential);
      const read = readStatusListCredential(credential);
      assert.ok("problem" in read);
      assert.match(read.problem, problem);
    });
  }
});

describe("list statusRef", () => {
  it("reads <list URL>#<index>, and only a decimal index without a leading zero", () => {
    assert.deepEqual(listEntryRef("https://r.example/l/abc#17"), { listUrl: "https://r.example/l/abc", index: 17 });
    assert.deepEqual(listEntryRef("https://r.example/l/abc#0"), { listUrl: "https://r.example/l/abc", index: 0 });
    for (const ref of [
      "https://r.example/s/x",
      "https://r.example/l#017",
      "https://r.example/l#-1",
      "https://r.example/l#1e3",
      "https://r.example/l#",
    ])
      assert.equal(listEntryRef(ref), undefined, ref);
  });
});
