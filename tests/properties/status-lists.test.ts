/**
 * Status lists under mutated input (issue 37, defect 10): the list credential and its `encodedList` (inflated within
 * a bound, however the GZIP is made), and a list as the client reads it over HTTP, where every fault is an
 * "unchecked" status with a `um:reason:status:*` code, never an exception.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { describe, it } from "node:test";
import fc from "fast-check";
import { listStatus } from "../../core/client/status-list-resolution.ts";
import {
  decodeStatusList,
  encodeStatusList,
  MAX_DECODED_BYTES,
  STATUS_LIST_BYTES,
  statusBitstring,
} from "../../core/status-list/bitstring.ts";
import { readStatusListCredential, statusListCredential } from "../../core/status-list/credential.ts";
import { documentText, excerpt, holds, mutatedText } from "../support/properties.ts";

const LIST = "https://fixture.example/.well-known/um-status/property";
const NOW = Date.parse("2026-06-01T00:00:00Z");
const encoded = await encodeStatusList(statusBitstring([[7, 2]]));
const credential = statusListCredential({
  url: LIST,
  issuer: "https://fixture.example",
  validFrom: "2026-05-01T00:00:00Z",
  ttlMs: 300_000,
  encodedList: encoded,
});
const multibase = (bytes: Uint8Array) => `u${Buffer.from(bytes).toString("base64url")}`;

/** encodedLists a hostile list serves: GZIP that inflates past the bound, is cut, is not GZIP, or holds too few entries. */
const HOSTILE_ENCODED_LISTS = [
  multibase(gzipSync(new Uint8Array(MAX_DECODED_BYTES + 1))),
  multibase(gzipSync(new Uint8Array(64 * 1024 * 1024), { level: 9 })),
  multibase(gzipSync(new Uint8Array(STATUS_LIST_BYTES)).subarray(0, 20)),
  multibase(gzipSync(new Uint8Array(STATUS_LIST_BYTES - 1))),
  multibase(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])),
  multibase(Buffer.concat([gzipSync(new Uint8Array(STATUS_LIST_BYTES)), Buffer.from("trailing")])),
  "u",
  "z123",
  "u!!!",
  "",
];
const encodedList = fc.oneof(
  fc.constantFrom(...HOSTILE_ENCODED_LISTS),
  mutatedText(encoded),
  fc.string({ unit: "binary", maxLength: 60 }),
);

describe("properties: status lists", () => {
  it("an encodedList gives its bits or a problem, and inflates no further than the bound", async () => {
    const bits = await decodeStatusList(encoded);
    assert.ok("codeAt" in bits && bits.codeAt(7) === 2);
    await holds(
      "encodedList",
      fc.asyncProperty(encodedList, async (text) => {
        const decoded = await decodeStatusList(text);
        if ("problem" in decoded) assert.equal(typeof decoded.problem, "string");
        else assert.ok(decoded.entries * 2 <= MAX_DECODED_BYTES * 8, excerpt(text));
      }),
      150,
    );
  });

  it("a list credential is read, or refused with a problem", async () => {
    assert.ok(!("problem" in readStatusListCredential(credential)));
    const parsed = (text: string): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    };
    await holds(
      "list credential",
      fc.property(documentText(credential), (text) => {
        const read = readStatusListCredential(parsed(text));
        assert.ok("problem" in read || typeof read.encodedList === "string");
      }),
      500,
    );
  });

  it("a list the client fetches gives a status, or unchecked with a reason code", async () => {
    const request = (body: string) => ({
      now: NOW,
      cache: undefined,
      transport: {
        fetch: async () => new Response(body, { headers: { "content-type": "application/vc+ld+json" } }),
        timeoutMs: 1_000,
      },
      listKeys: undefined,
      floor: undefined,
    });
    const honest = await listStatus({ listUrl: LIST, index: 7 }, request(JSON.stringify(credential)));
    assert.equal(honest.revocation.status, "revoked");
    const body = fc.oneof(
      documentText(credential),
      encodedList.map((list) =>
        JSON.stringify({
          ...credential,
          credentialSubject: { ...(credential.credentialSubject as object), encodedList: list },
        }),
      ),
    );
    await holds(
      "status list over HTTP",
      fc.asyncProperty(body, fc.nat(200_000), async (text, index) => {
        const { revocation } = await listStatus({ listUrl: LIST, index }, request(text));
        if (revocation.status === "unchecked") assert.match(revocation.code ?? "", /^um:reason:status:[a-z0-9-]+$/);
        else assert.ok(["active", "suspended", "revoked"].includes(revocation.status), excerpt(text));
      }),
      200,
    );
  });
});
