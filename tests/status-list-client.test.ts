/**
 * The relying party's side of issue 27: `resolve` reading a statusRef into a W3C Bitstring
 * Status List (EXT-OPT O2.4; VC Bitstring Status List v1.0 §3.2), pinning the list's key,
 * `statusOrigins`, and federation (EXT-OPT O5). The resolvers are an in-process fetch
 * serving credentials made with the core functions, so every request is counted.
 */
import assert from "node:assert/strict";
import { createPublicKey, sign, type KeyObject } from "node:crypto";
import { describe, it } from "node:test";
import { memoryCache, resolve, type Resolution, type ResolveOptions } from "../core/client/index.ts";
import { MAX_DISCOVERED_PEERS } from "../core/client/resolvers-document.ts";
import { addEddsaJcs2022Proof } from "../core/crypto/eddsa-jcs-2022.ts";
import { ed25519DidKey } from "../core/did/did-key.ts";
import type { Receipt } from "../core/evaluate/index.ts";
import {
  encodeStatusList,
  MAX_DECODED_BYTES,
  statusBitstring,
  type StatusCode,
} from "../core/status-list/bitstring.ts";
import { STATUS_CODES, statusListCredential } from "../core/status-list/credential.ts";
import { listStatusRef, statusListUrl } from "../core/status-list/list-entry-ref.ts";
import { statusCursor, type StatusDocument } from "../core/status/status-document.ts";
import { RESOLVERS_PATH, statusPath, umidPath } from "../core/umid-path.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";

const NOW = "2026-06-01T00:00:00Z";
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const BASE = "https://resolver.example";
const PEER = "https://peer.example";
const LIST = statusListUrl(BASE, "0123456789abcdef");
const key = newKey();
const listKey = newKey();

type Handler = (headers: Headers) => Response;

/** An in-process web of resolvers: a handler by URL, and every request made, by URL. */
function web() {
  const routes = new Map<string, Handler>();
  const requests: { url: string; headers: Headers }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    requests.push({ url, headers });
    const handler = routes.get(url);
    if (handler === undefined)
      return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
    return handler(headers);
  };
  return { routes, requests, fetch, hits: (url: string) => requests.filter((r) => r.url === url).length };
}

/** A 200 of `value` with an ETag, a 304 to a request that has it. */
function served(value: unknown, type = "application/vc+ld+json", headers: Record<string, string> = {}): Handler {
  const text = JSON.stringify(value);
  const etag = `W/"${text.length}-${hash(text)}"`;
  return (request) =>
    request.get("if-none-match") === etag
      ? new Response(null, { status: 304, headers: { etag } })
      : new Response(text, { status: 200, headers: { "content-type": type, etag, ...headers } });
}

function hash(text: string): string {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) | 0;
  return (h >>> 0).toString(16);
}

const failing =
  (status: number): Handler =>
  () =>
    new Response("{}", { status, headers: { "content-type": "application/json" } });

interface ListFields {
  url?: string;
  codes?: [number, StatusCode][];
  validFrom?: string;
  validUntil?: string;
  ttlMs?: number;
}

/** A list credential, unsigned. */
async function listCredential(fields: ListFields = {}): Promise<Record<string, unknown>> {
  const credential = statusListCredential({
    url: fields.url ?? LIST,
    issuer: BASE,
    validFrom: fields.validFrom ?? "2026-05-01T00:00:00Z",
    ttlMs: fields.ttlMs ?? 300_000,
    encodedList: await encodeStatusList(statusBitstring(fields.codes ?? [])),
  });
  return fields.validUntil === undefined ? credential : { ...credential, validUntil: fields.validUntil };
}

function didKeyOf(k: KeyObject): string {
  const x = createPublicKey(k).export({ format: "jwk" }).x!;
  return ed25519DidKey(new Uint8Array(Buffer.from(x, "base64url")));
}

/** `credential` with an eddsa-jcs-2022 proof by `by`. */
function signedList(credential: Record<string, unknown>, by = listKey): Promise<Record<string, unknown>> {
  const did = didKeyOf(by);
  return addEddsaJcs2022Proof(
    credential,
    { verificationMethod: `${did}#${did.slice("did:key:".length)}`, created: "2026-05-01T00:00:00Z" },
    async (data) => new Uint8Array(sign(null, data, by)),
  );
}

/** The keys pinning the manifests' key and, when given, a did:key a list must be signed by. */
function keysPinning(list?: KeyObject): Record<string, string> {
  const spki = (k: KeyObject) => createPublicKey(k).export({ format: "der", type: "spki" }).toString("base64");
  if (list === undefined) return pinning(key);
  const did = didKeyOf(list);
  return { ...pinning(key), [`${did}#${did.slice("did:key:".length)}`]: spki(list) };
}

/** Publishes a manifest for `umid` at BASE whose statusRef is `statusRef` (and the signature's `more` members). */
function publish(w: ReturnType<typeof web>, umid: string, statusRef: string, base = BASE, more = {}): void {
  const m = signed(manifestFor(umid), key);
  w.routes.set(
    base + umidPath(umid),
    served({ ...m, signature: { ...(m.signature as object), statusRef, ...more } }, "application/ld+json"),
  );
}

const at = (w: ReturnType<typeof web>, now = NOW, more: Partial<ResolveOptions> = {}): ResolveOptions => ({
  context: { now, omitProcessedAt: true },
  offline: true,
  fetch: w.fetch,
  ...more,
});

function receiptOf(result: Resolution): Receipt {
  assert.ok("receipt" in result, `not resolvable: ${"reason" in result ? result.reason : ""}`);
  return result.receipt;
}

const codes = (r: Receipt) => r.warnings.map((w) => w.code);
const statusOf = (r: Receipt) => [r.outcome, r.revocationStatus, r.revocationReason, r.revocationResolvedBy];

describe("a statusRef into a Bitstring Status List (EXT-OPT O2.4; VC Bitstring Status List §3.2)", () => {
  it("reads each status at its index; the receipt says the list was trusted by its origin", async () => {
    const w = web();
    w.routes.set(
      LIST,
      served(
        await listCredential({
          codes: [
            [17, 1],
            [90210, 2],
            [5, 0],
          ],
        }),
      ),
    );
    const expected = [
      [5, ["accepted", "active", undefined, LIST]],
      [6, ["accepted", "active", undefined, LIST]],
      [17, ["accepted-with-warnings", "suspended", "um:reason:status:suspended", LIST]],
      [90210, ["rejected", "revoked", "um:reason:status:revoked", LIST]],
    ] as const;
    for (const [index, status] of expected) {
      publish(w, `urn:l:${index}`, listStatusRef(LIST, index));
      const result = await resolve(BASE, `urn:l:${index}`, at(w));
      assert.deepEqual(statusOf(receiptOf(result)), status, `index ${index}`);
      // What was read: the list's validFrom is as of when.
      assert.deepEqual(
        "receipt" in result && result.answeredStatus,
        { value: status[1], since: "2026-05-01T00:00:00Z", url: LIST },
        `index ${index}`,
      );
    }
  });

  it("a status document's answer records where it came from too", async () => {
    const w = web();
    const ref = BASE + statusPath("urn:l:doc");
    const document: StatusDocument = { manifestId: "urn:l:doc", status: "active", updatedAt: "2026-05-01T00:00:00Z" };
    w.routes.set(ref, served(document, "application/json"));
    publish(w, "urn:l:doc", ref);
    assert.deepEqual(statusOf(receiptOf(await resolve(BASE, "urn:l:doc", at(w)))), [
      "accepted",
      "active",
      undefined,
      ref,
    ]);
  });

  it("every failure leaves the status unchecked with O2.4's reason, never a rejection", async () => {
    const cases: [string, Handler | "throws", string][] = [
      ["404", failing(404), "um:reason:status:endpoint-unknown-manifest"],
      ["503", failing(503), "um:reason:status:endpoint-unavailable"],
      ["500", failing(500), "um:reason:status:http-500"],
      ["network", "throws", "um:reason:status:endpoint-unavailable"],
      [
        "not JSON",
        () => new Response("<html>", { headers: { "content-type": "text/html" } }),
        "um:reason:status:invalid-response",
      ],
      [
        "bad JSON",
        () => new Response("{", { headers: { "content-type": "application/json" } }),
        "um:reason:status:invalid-response",
      ],
      ["not a list", served({ hello: "world" }), "um:reason:status:invalid-response"],
    ];
    const built = async (fields: ListFields, index = 3, transform = (c: Record<string, unknown>) => c) =>
      [served(transform(await listCredential(fields))), index] as const;
    const listCases: [string, readonly [Handler, number], string?][] = [
      ["index beyond the list", await built({}, 131_072)],
      // The list's publisher answers for no status there: the status endpoint's 404.
      ["value 0x3, undefined", await built({ codes: [[3, 3]] }), "um:reason:status:endpoint-unknown-manifest"],
      ["another list's id", await built({ url: `${LIST}x` })],
      ["expired", await built({ validUntil: later(-1) })],
      ["not yet valid", await built({ validFrom: later(60) })],
      [
        "encodedList not GZIP",
        await built({}, 3, (c) => ({
          ...c,
          credentialSubject: { ...(c.credentialSubject as object), encodedList: "uAAAA" },
        })),
      ],
    ];
    for (const [name, handler, code] of [
      ...cases,
      ...listCases.map(
        ([name, [handler], code = "um:reason:status:invalid-response"]) => [name, handler, code] as const,
      ),
    ]) {
      const w = web();
      const index = listCases.find(([n]) => n === name)?.[1][1] ?? 3;
      const fetch: ResolveOptions["fetch"] =
        handler === "throws"
          ? async (url, init) => {
              if (url === LIST) throw new TypeError("fetch failed");
              return w.fetch(url, init);
            }
          : w.fetch;
      if (handler !== "throws") w.routes.set(LIST, handler);
      publish(w, "urn:l:fail", listStatusRef(LIST, index));
      const r = receiptOf(await resolve(BASE, "urn:l:fail", at(w, NOW, { fetch })));
      assert.deepEqual(statusOf(r), ["accepted-with-warnings", "unchecked", code, undefined], name);
      assert.deepEqual(codes(r), [code], name);
    }
  });

  it("is kept for its ttl, then revalidated by its ETag; never used past its validUntil", async () => {
    const w = web();
    w.routes.set(LIST, served(await listCredential({ ttlMs: 60_000, validUntil: later(150) })));
    publish(w, "urn:l:ttl", listStatusRef(LIST, 9));
    const cache = memoryCache();
    const ask = async (now: string) =>
      receiptOf(await resolve(BASE, "urn:l:ttl", at(w, now, { cache }))).revocationStatus;
    assert.equal(await ask(NOW), "active");
    assert.equal(await ask(later(30)), "active");
    assert.equal(w.hits(LIST), 1, "fresh within its ttl");
    assert.equal(await ask(later(90)), "active");
    assert.equal(w.hits(LIST), 2, "asked again past its ttl");
    assert.match(w.requests.at(-1)!.headers.get("if-none-match") ?? "", /^W\//, "revalidated by its ETag");
    // Within the ttl of the revalidation, yet past validUntil: asked again, and, still expired, unchecked.
    const expired = receiptOf(await resolve(BASE, "urn:l:ttl", at(w, later(151), { cache })));
    assert.equal(w.hits(LIST), 3);
    assert.deepEqual(statusOf(expired).slice(1, 3), ["unchecked", "um:reason:status:invalid-response"]);
  });

  it("a kept list older than the manifest's revocationCursor is revalidated (EXT-OPT O2.1's floor)", async () => {
    const w = web();
    const cache = memoryCache();
    w.routes.set(LIST, served(await listCredential({ validFrom: "2026-05-01T00:00:00Z" })));
    publish(w, "urn:l:floor-old", listStatusRef(LIST, 1));
    receiptOf(await resolve(BASE, "urn:l:floor-old", at(w, NOW, { cache })));
    // Within the list's ttl: another manifest of it, issued after the list's validFrom, needs a newer one.
    w.routes.set(LIST, served(await listCredential({ codes: [[2, 2]], validFrom: "2026-05-20T00:00:00Z" })));
    publish(w, "urn:l:floor", listStatusRef(LIST, 2), BASE, {
      revocationCursor: statusCursor("2026-05-20T00:00:00Z"),
    });
    const r = receiptOf(await resolve(BASE, "urn:l:floor", at(w, later(10), { cache })));
    assert.equal(w.hits(LIST), 2);
    assert.equal(r.revocationStatus, "revoked");
  });

  it("a relying party checking 1,000 manifests of one list fetches it once, and inflates it once", async () => {
    const w = web();
    w.routes.set(LIST, served(await listCredential({ codes: [[500, 2]] })));
    const cache = memoryCache();
    const statuses = new Map<string, number>();
    const Inflating = globalThis.DecompressionStream;
    let inflated = 0;
    globalThis.DecompressionStream = class extends Inflating {
      constructor(format: ConstructorParameters<typeof Inflating>[0]) {
        super(format);
        inflated++;
      }
    };
    try {
      for (let i = 0; i < 1000; i++) {
        publish(w, `urn:l:herd:${i}`, listStatusRef(LIST, i));
        const { revocationStatus } = receiptOf(await resolve(BASE, `urn:l:herd:${i}`, at(w, NOW, { cache })));
        statuses.set(revocationStatus, (statuses.get(revocationStatus) ?? 0) + 1);
      }
    } finally {
      globalThis.DecompressionStream = Inflating;
    }
    assert.deepEqual([w.hits(LIST), inflated], [1, 1]);
    assert.deepEqual(Object.fromEntries(statuses), { active: 999, revoked: 1 });
  });

  it("a list that inflates to megabytes is kept read at that size: three of them do not all stay", async () => {
    const w = web();
    const urls = ["big0", "big1", "big2"].map((id) => statusListUrl(BASE, id));
    const encodedList = await encodeStatusList(new Uint8Array(MAX_DECODED_BYTES));
    for (const [i, url] of urls.entries()) {
      const credential = statusListCredential({ url, issuer: BASE, validFrom: later(-60), ttlMs: 0, encodedList });
      w.routes.set(url, served(credential));
      publish(w, `urn:l:big:${i}`, listStatusRef(url, i));
    }
    const Inflating = globalThis.DecompressionStream;
    let inflated = 0;
    globalThis.DecompressionStream = class extends Inflating {
      constructor(format: ConstructorParameters<typeof Inflating>[0]) {
        super(format);
        inflated++;
      }
    };
    try {
      for (const i of [0, 1, 2, 0]) {
        const r = receiptOf(await resolve(BASE, `urn:l:big:${i}`, at(w)));
        assert.equal(r.revocationStatus, "active");
      }
    } finally {
      globalThis.DecompressionStream = Inflating;
    }
    // 8 MiB of bits each: the first was evicted to keep the others, and is inflated again.
    assert.equal(inflated, 4);
  });

  it("is ordered by its validFrom: a stale list cannot lift a suspension, a newer one can", async () => {
    const w = web();
    const cache = memoryCache();
    publish(w, "urn:l:order", listStatusRef(LIST, 4));
    const ask = async (fields: ListFields) => {
      w.routes.set(LIST, served(await listCredential({ ttlMs: 0, ...fields })));
      return receiptOf(await resolve(BASE, "urn:l:order", at(w, NOW, { cache })));
    };
    assert.equal((await ask({ codes: [[4, 1]], validFrom: "2026-05-02T00:00:00Z" })).revocationStatus, "suspended");
    const stale = await ask({ validFrom: "2026-05-01T00:00:00Z" });
    assert.deepEqual([stale.revocationStatus, stale.warnings[0]?.rule], ["suspended", "status/cursor-rollback"]);
    assert.equal((await ask({ validFrom: "2026-05-03T00:00:00Z" })).revocationStatus, "active");
    assert.equal((await ask({ codes: [[4, 2]], validFrom: "2026-05-04T00:00:00Z" })).revocationStatus, "revoked");
    const after = await ask({ validFrom: "2026-05-05T00:00:00Z" });
    assert.deepEqual([after.revocationStatus, after.warnings[0]?.rule], ["revoked", "status/revocation-contradicted"]);
    assert.equal(statusCursor("2026-05-05T00:00:00Z").length, 16);
  });
});

describe("what this client saw of a status (EXT-OPT O2.3)", () => {
  it("a statusRef naming the memory's own key cannot overwrite a revocation seen", async () => {
    const w = web();
    const umid = "urn:m:erase";
    const url = BASE + umidPath(umid);
    const endpoint = BASE + statusPath(umid);
    const m = signed(manifestFor(umid), key);
    const withRef = (statusRef: string) => ({ ...m, signature: { ...(m.signature as object), statusRef } });
    const document = (status: StatusDocument["status"]) => ({ manifestId: umid, status, updatedAt: later(-60) });
    let manifest = served(withRef(endpoint), "application/ld+json");
    // The resolver answers its manifest's URL with a status document when asked for application/json only.
    w.routes.set(url, (headers) =>
      headers.get("accept") === "application/json"
        ? served(document("active"), "application/json")(headers)
        : manifest(headers),
    );
    w.routes.set(endpoint, served(document("revoked"), "application/json"));
    // A real fetch sends no fragment.
    const fetch: ResolveOptions["fetch"] = (target, init) => w.fetch(target.split("#")[0]!, init);
    const cache = memoryCache();
    const ask = async () => receiptOf(await resolve(BASE, umid, at(w, NOW, { cache, fetch }))).revocationStatus;
    assert.equal(await ask(), "revoked");
    manifest = served(withRef(`${url}#status-seen`), "application/ld+json");
    assert.equal(await ask(), "revoked");
    assert.equal(await ask(), "revoked", "the revocation seen is still remembered");
  });
});

describe("a list whose key the relying party pins (--keys naming a did:key)", () => {
  it("counts only with a valid proof by a pinned key: else unchecked, list-unverified", async () => {
    const credential = await listCredential({ codes: [[3, 2]] });
    const good = await signedList(credential);
    const tampered = { ...good, validFrom: "2026-05-02T00:00:00Z" };
    const cases = [
      ["signed by the pinned key", good, ["rejected", "revoked", "um:reason:status:revoked", "keys"]],
      ["no proof", credential, ["accepted-with-warnings", "unchecked", "um:reason:status:list-unverified", undefined]],
      ["tampered", tampered, ["accepted-with-warnings", "unchecked", "um:reason:status:list-unverified", undefined]],
      [
        "another key",
        await signedList(credential, newKey()),
        ["accepted-with-warnings", "unchecked", "um:reason:status:list-unverified", undefined],
      ],
    ] as const;
    for (const [name, list, expected] of cases) {
      const w = web();
      w.routes.set(LIST, served(list));
      publish(w, "urn:l:pin", listStatusRef(LIST, 3));
      const r = receiptOf(await resolve(BASE, "urn:l:pin", at(w, NOW, { keys: keysPinning(listKey) })));
      assert.deepEqual(statusOf(r), expected, name);
      if (expected[1] === "unchecked") assert.equal(r.warnings[0]?.rule, "status/list-unverified", name);
    }
  });

  it("a list the pinned key signed without an id is not taken: its proof says not which list it is", async () => {
    // Any list the key signed with no id could otherwise be served at any list URL, its bits taken for that list's.
    const { id: _, ...anonymous } = await listCredential();
    const w = web();
    w.routes.set(LIST, served(await signedList(anonymous)));
    publish(w, "urn:l:anonymous", listStatusRef(LIST, 3));
    const r = receiptOf(await resolve(BASE, "urn:l:anonymous", at(w, NOW, { keys: keysPinning(listKey) })));
    assert.deepEqual(statusOf(r).slice(1, 3), ["unchecked", "um:reason:status:list-unverified"]);
    assert.equal(r.warnings[0]?.rule, "status/list-unverified");
  });

  it("without a pinned did:key, a signed list is trusted by its origin as any other", async () => {
    const w = web();
    w.routes.set(LIST, served(await signedList(await listCredential())));
    publish(w, "urn:l:nopin", listStatusRef(LIST, 3));
    const r = receiptOf(await resolve(BASE, "urn:l:nopin", at(w, NOW, { keys: keysPinning() })));
    assert.deepEqual(statusOf(r), ["accepted", "active", undefined, LIST]);
  });
});

// Issue 37, defect 4: a remote resolver must not point the client at its own machine or network, however spelt.
describe("a remote party's URL on a local or private address is not asked", () => {
  const locals = [
    "https://[::ffff:127.0.0.1]:8443",
    "https://[::ffff:7f00:1]",
    "https://0.0.0.0:8443",
    "https://10.0.0.1",
  ];

  it("a statusRef there: unchecked, not asked", async () => {
    for (const local of locals) {
      const w = web();
      const there = new URL(statusListUrl(local, "0123456789abcdef")).href;
      w.routes.set(there, served(await listCredential({ url: there })));
      publish(w, "urn:l:ref", listStatusRef(there, 1));
      const r = receiptOf(await resolve(BASE, "urn:l:ref", at(w)));
      assert.deepEqual(statusOf(r).slice(1, 3), ["unchecked", "um:reason:status:local-address"], local);
      assert.equal(w.hits(there), 0, local);
    }
  });

  it("a redirect there, of the manifest or of its status: not followed", async () => {
    for (const local of locals) {
      const w = web();
      const hop = `${BASE}/hop`;
      const there = new URL(`${local}/list`).href;
      w.routes.set(hop, () => new Response(null, { status: 307, headers: { location: there } }));
      w.routes.set(there, served(await listCredential({ url: hop })));
      publish(w, "urn:l:hop", listStatusRef(hop, 3));
      const r = receiptOf(await resolve(BASE, "urn:l:hop", at(w)));
      assert.equal(r.revocationStatus, "unchecked", local);
      assert.equal(w.hits(there), 0, local);
      const moved = web();
      moved.routes.set(
        BASE + umidPath("urn:l:moved"),
        () => new Response(null, { status: 307, headers: { location: `${local}/m` } }),
      );
      moved.routes.set(
        new URL(`${local}/m`).href,
        served(signed(manifestFor("urn:l:moved"), key), "application/ld+json"),
      );
      const result = await resolve(BASE, "urn:l:moved", at(moved));
      assert.ok("reason" in result, local);
      assert.equal(moved.hits(new URL(`${local}/m`).href), 0, local);
    }
  });

  it("a resolver on this machine may point at this machine", async () => {
    const local = "http://127.0.0.1:8080";
    const w = web();
    const there = new URL(statusListUrl("https://[::ffff:127.0.0.1]", "0123456789abcdef")).href;
    w.routes.set(there, served(await listCredential({ url: there })));
    publish(w, "urn:l:both", listStatusRef(there, 1), local);
    const r = receiptOf(await resolve(local, "urn:l:both", at(w)));
    assert.equal(r.revocationStatus, "active");
    assert.equal(w.hits(there), 1);
  });
});

describe("where status may come from (statusOrigins)", () => {
  const elsewhere = statusListUrl("https://status.example", "0123456789abcdef");

  it("a statusRef outside statusOrigins is not asked: unchecked, origin-not-allowed", async () => {
    const w = web();
    w.routes.set(elsewhere, served(await listCredential({ url: elsewhere })));
    publish(w, "urn:o:refused", listStatusRef(elsewhere, 1));
    const r = receiptOf(await resolve(BASE, "urn:o:refused", at(w, NOW, { statusOrigins: [BASE] })));
    assert.deepEqual(statusOf(r), [
      "accepted-with-warnings",
      "unchecked",
      "um:reason:status:origin-not-allowed",
      undefined,
    ]);
    assert.equal(r.warnings[0]?.rule, "status/origin-not-allowed");
    assert.equal(w.hits(elsewhere), 0);
    const allowed = receiptOf(
      await resolve(BASE, "urn:o:refused", at(w, NOW, { statusOrigins: ["https://status.example/"] })),
    );
    assert.deepEqual(statusOf(allowed), ["accepted", "active", undefined, elsewhere]);
  });

  it("without it, a statusRef on another origin than the resolver's is used, with a warning", async () => {
    const w = web();
    w.routes.set(elsewhere, served(await listCredential({ url: elsewhere })));
    publish(w, "urn:o:foreign", listStatusRef(elsewhere, 1));
    const r = receiptOf(await resolve(BASE, "urn:o:foreign", at(w)));
    assert.deepEqual(statusOf(r), ["accepted-with-warnings", "active", undefined, elsewhere]);
    assert.deepEqual(codes(r), ["um:reason:status:foreign-origin"]);
  });

  it("a copy of a revoked manifest served by another resolver is rejected through the publisher's list", async () => {
    const w = web();
    const copier = "https://copier.example";
    w.routes.set(LIST, served(await listCredential({ codes: [[11, STATUS_CODES.revoked]] })));
    publish(w, "urn:o:copy", listStatusRef(LIST, 11), copier);
    const r = receiptOf(await resolve(copier, "urn:o:copy", at(w)));
    assert.deepEqual(statusOf(r), ["rejected", "revoked", "um:reason:status:revoked", LIST]);
    assert.deepEqual(codes(r), ["um:reason:status:revoked", "um:reason:status:foreign-origin"]);
  });

  it("a statusRef on an allowed origin that redirects elsewhere is not followed there", async () => {
    // Any redirect the allowed origin serves (a redirected UMID's, say) would launder another origin's list.
    const w = web();
    const hop = `${BASE}/hop`;
    const evil = "https://evil.example/list";
    w.routes.set(hop, () => new Response(null, { status: 307, headers: { location: evil } }));
    w.routes.set(evil, served(await listCredential({ url: hop })));
    publish(w, "urn:o:hop", listStatusRef(hop, 3));
    const r = receiptOf(await resolve(BASE, "urn:o:hop", at(w, NOW, { statusOrigins: [BASE] })));
    assert.deepEqual(statusOf(r), [
      "accepted-with-warnings",
      "unchecked",
      "um:reason:status:origin-not-allowed",
      undefined,
    ]);
    assert.equal(r.warnings[0]?.rule, "status/origin-not-allowed");
    assert.equal(w.hits(evil), 0);
  });

  // Issue 37, defect 5: a mirror's copy, its statusRef rewritten, and its own peer in its discovery document.
  it("holds every peer, named or discovered, to statusOrigins: a revoked manifest's mirror stays rejected", async () => {
    const w = web();
    const mirror = "https://mirror.example";
    const accomplice = "https://accomplice.example";
    const mirrorList = statusListUrl(mirror, "0123456789abcdef");
    w.routes.set(LIST, served(await listCredential({ codes: [[11, STATUS_CODES.revoked]] })));
    w.routes.set(mirrorList, served(await listCredential({ url: mirrorList })));
    const accompliceList = accomplice + mirrorList.slice(mirror.length);
    w.routes.set(accompliceList, served(await listCredential({ url: mirrorList })));
    w.routes.set(
      mirror + RESOLVERS_PATH,
      served(
        { resolver: "did:web:mirror.example", peers: [{ url: `${accomplice}/`, did: "did:web:accomplice.example" }] },
        "application/json",
      ),
    );
    publish(w, "urn:o:mirrored", listStatusRef(mirrorList, 11), mirror);
    for (const federation of [{ federateDiscover: true }, { federate: [accomplice] }]) {
      const r = receiptOf(
        await resolve(
          mirror,
          "urn:o:mirrored",
          at(w, NOW, {
            ...federation,
            statusOrigins: [BASE],
            context: { now: NOW, omitProcessedAt: true, requireActiveStatus: true },
          }),
        ),
      );
      assert.deepEqual(statusOf(r).slice(0, 2), ["rejected", "unchecked"], JSON.stringify(federation));
      assert.equal(w.hits(accompliceList), 0);
    }
  });

  it("a peer on an allowed origin is asked, and its redirect elsewhere is not followed", async () => {
    const w = web();
    const evil = "https://evil.example/list";
    w.routes.set(LIST, served(await listCredential({ codes: [[4, STATUS_CODES.revoked]] })));
    const peerList = PEER + LIST.slice(BASE.length);
    w.routes.set(peerList, () => new Response(null, { status: 307, headers: { location: evil } }));
    w.routes.set(evil, served(await listCredential({ url: LIST })));
    publish(w, "urn:o:peer-hop", listStatusRef(LIST, 4));
    const r = receiptOf(
      await resolve(BASE, "urn:o:peer-hop", at(w, NOW, { federate: [PEER], statusOrigins: [BASE, PEER] })),
    );
    assert.deepEqual(statusOf(r).slice(0, 2), ["rejected", "revoked"]);
    assert.equal(w.hits(peerList), 1);
    assert.equal(w.hits(evil), 0);
  });

  it("refuses what is not an origin", async () => {
    await assert.rejects(
      resolve(BASE, "urn:o:x", at(web(), NOW, { statusOrigins: ["https://a.example/path"] })),
      TypeError,
    );
  });
});

describe("federation (EXT-OPT O5)", () => {
  const PEER_LIST = PEER + LIST.slice(BASE.length);
  async function federation(
    primary: Handler,
    peer: Handler | undefined,
    more: Partial<ResolveOptions> = {},
    discovery?: Handler,
  ) {
    const w = web();
    if (discovery !== undefined) w.routes.set(BASE + RESOLVERS_PATH, discovery);
    w.routes.set(LIST, primary);
    if (peer !== undefined) w.routes.set(PEER_LIST, peer);
    publish(w, "urn:f:1", listStatusRef(LIST, 8));
    const r = receiptOf(await resolve(BASE, "urn:f:1", at(w, NOW, { federate: [PEER], ...more })));
    return { r, w };
  }
  /** The primary's list, or with `url` a peer's (its id is its own URL). */
  const list = async (code: StatusCode, url = LIST) => served(await listCredential({ url, codes: [[8, code]] }));

  it("peers that agree: no warning; the peer is asked at the same list path", async () => {
    const { r, w } = await federation(await list(0), await list(0, PEER_LIST));
    assert.deepEqual(statusOf(r), ["accepted", "active", undefined, LIST]);
    assert.equal(w.hits(PEER_LIST), 1);
  });

  it("a peer's copy of the primary's list, its id the primary's URL, counts as the peer's answer", async () => {
    const { r } = await federation(await list(0), await list(STATUS_CODES.revoked));
    assert.deepEqual(statusOf(r).slice(0, 2), ["rejected", "revoked"]);
    assert.ok(codes(r).includes("um:reason:status:federation-inconsistent"), codes(r).join(", "));
  });

  it("a peer's list whose id is a third URL is no answer", async () => {
    const { r } = await federation(await list(0), await list(STATUS_CODES.revoked, `${PEER}/elsewhere`));
    assert.deepEqual(statusOf(r).slice(0, 2), ["accepted-with-warnings", "active"]);
    assert.deepEqual(codes(r), ["um:reason:status:federation-peer-unavailable"]);
  });

  it("a peer that revoked wins, and the disagreement is a warning naming who said what", async () => {
    const { r } = await federation(await list(0), await list(STATUS_CODES.revoked, PEER_LIST));
    assert.deepEqual(statusOf(r).slice(0, 3), ["rejected", "revoked", "um:reason:status:revoked"]);
    assert.deepEqual(codes(r), ["um:reason:status:revoked", "um:reason:status:federation-inconsistent"]);
    const said = r.warnings[1]!;
    assert.equal(said.rule, "status/federation-inconsistent");
    assert.ok(said.message.includes(`${BASE} active`) && said.message.includes(`${PEER} revoked`), said.message);
  });

  it("an unreachable peer is a warning, never active: the primary's suspension stands", async () => {
    const { r } = await federation(await list(STATUS_CODES.suspended), failing(503));
    assert.deepEqual(statusOf(r).slice(1, 3), ["suspended", "um:reason:status:suspended"]);
    assert.deepEqual(codes(r), ["um:reason:status:suspended", "um:reason:status:federation-peer-unavailable"]);
  });

  it("the primary down, a peer answering: its status, and why the primary did not", async () => {
    const { r } = await federation(failing(503), await list(0, PEER_LIST));
    assert.deepEqual(statusOf(r), ["accepted-with-warnings", "active", undefined, PEER_LIST]);
    assert.deepEqual(codes(r), ["um:reason:status:endpoint-unavailable"]);
  });

  it("unchecked only when no one answered, with the primary's reason", async () => {
    const { r } = await federation(failing(404), undefined);
    assert.deepEqual(statusOf(r), [
      "accepted-with-warnings",
      "unchecked",
      "um:reason:status:endpoint-unknown-manifest",
      undefined,
    ]);
    assert.deepEqual(codes(r), [
      "um:reason:status:endpoint-unknown-manifest",
      "um:reason:status:federation-peer-unavailable",
    ]);
  });

  it("no statusRef: the resolver's and each peer's own listing are asked; a peer that lists none warns of nothing", async () => {
    const w = web();
    const umid = "urn:f:unreferenced";
    w.routes.set(BASE + umidPath(umid), served(signed(manifestFor(umid), key), "application/ld+json"));
    const doc = (status: StatusDocument["status"]) =>
      served({ manifestId: umid, status, updatedAt: "2026-05-01T00:00:00Z" }, "application/json");
    w.routes.set(BASE + statusPath(umid), doc("active"));
    const alone = receiptOf(await resolve(BASE, umid, at(w, NOW, { federate: [PEER] })));
    assert.deepEqual(statusOf(alone), ["accepted", "active", undefined, BASE + statusPath(umid)]);
    assert.deepEqual([codes(alone), w.hits(PEER + statusPath(umid))], [[], 1]);
    w.routes.set(PEER + statusPath(umid), doc("suspended"));
    const r = receiptOf(await resolve(BASE, umid, at(w, NOW, { federate: [PEER] })));
    assert.deepEqual(statusOf(r).slice(1, 3), ["suspended", "um:reason:status:suspended"]);
    assert.deepEqual(codes(r), ["um:reason:status:suspended", "um:reason:status:federation-inconsistent"]);
  });

  it("a status endpoint's statusRef: each peer is asked at its own status endpoint", async () => {
    const w = web();
    const ref = BASE + statusPath("urn:f:doc");
    const doc = (status: StatusDocument["status"]) =>
      served({ manifestId: "urn:f:doc", status, updatedAt: "2026-05-01T00:00:00Z" }, "application/json");
    w.routes.set(ref, doc("active"));
    w.routes.set(PEER + statusPath("urn:f:doc"), doc("suspended"));
    publish(w, "urn:f:doc", ref);
    const r = receiptOf(await resolve(BASE, "urn:f:doc", at(w, NOW, { federate: [PEER] })));
    assert.deepEqual(statusOf(r).slice(1, 3), ["suspended", "um:reason:status:suspended"]);
    assert.deepEqual(codes(r), ["um:reason:status:suspended", "um:reason:status:federation-inconsistent"]);
  });

  it("federateDiscover takes the peers from the primary's /.well-known/um-resolvers", async () => {
    const discovery = served(
      { resolver: "did:web:resolver.example", peers: [{ url: `${PEER}/`, did: "did:web:peer.example" }] },
      "application/json",
    );
    const w = web();
    w.routes.set(LIST, await list(0));
    w.routes.set(PEER_LIST, await list(STATUS_CODES.suspended, PEER_LIST));
    w.routes.set(BASE + RESOLVERS_PATH, discovery);
    publish(w, "urn:f:2", listStatusRef(LIST, 8));
    const r = receiptOf(await resolve(BASE, "urn:f:2", at(w, NOW, { federateDiscover: true })));
    assert.deepEqual(statusOf(r).slice(1, 3), ["suspended", "um:reason:status:suspended"]);
    assert.equal(w.hits(PEER_LIST), 1);
  });

  it("a discovery document missing or malformed: a warning, then the peers named", async () => {
    for (const document of [undefined, served({ resolver: "not a DID", peers: [] }, "application/json")]) {
      const { r, w } = await federation(await list(0), await list(0, PEER_LIST), { federateDiscover: true }, document);
      assert.deepEqual(codes(r), ["um:reason:status:federation-discovery-failed"]);
      assert.equal(w.hits(PEER_LIST), 1);
    }
  });

  it("a discovery document naming more peers than the client asks is refused whole: a warning", async () => {
    const peers = Array.from({ length: MAX_DISCOVERED_PEERS + 1 }, (_, i) => ({
      url: `https://peer${i}.example/`,
      did: `did:web:peer${i}.example`,
    }));
    const document = served({ resolver: "did:web:resolver.example", peers }, "application/json");
    const { r, w } = await federation(await list(0), undefined, { federate: [], federateDiscover: true }, document);
    assert.deepEqual(statusOf(r), ["accepted-with-warnings", "active", undefined, LIST]);
    assert.deepEqual(codes(r), ["um:reason:status:federation-discovery-failed"]);
    assert.equal(w.requests.filter((q) => new URL(q.url).hostname.startsWith("peer")).length, 0);
  });

  it("a remote resolver's discovery document cannot send the client to a loopback peer", async () => {
    const local = "http://127.0.0.1:8080";
    const document = served(
      { resolver: "did:web:resolver.example", peers: [{ url: `${local}/`, did: "did:web:local.example" }] },
      "application/json",
    );
    const { r, w } = await federation(await list(0), undefined, { federate: [], federateDiscover: true }, document);
    assert.deepEqual(codes(r), ["um:reason:status:federation-discovery-failed"]);
    assert.equal(w.requests.filter((q) => q.url.startsWith(local)).length, 0);
  });

  // Issue 37, defect 4: the guard knew 127.0.0.0/8, [::1] and localhost, and no other spelling of this machine.
  it("a remote resolver's discovery document cannot name a peer on any local or private address", async () => {
    for (const local of [
      "https://[::ffff:127.0.0.1]:8443",
      "https://0.0.0.0:8443",
      "https://[::]:8443",
      "https://10.1.2.3",
      "https://172.16.0.1",
      "https://192.168.1.1",
      "https://169.254.169.254",
      "https://100.64.0.1",
      "https://[fd00::1]",
      "https://[fe80::1]",
      "https://printer.localhost",
    ]) {
      const document = served(
        { resolver: "did:web:resolver.example", peers: [{ url: `${local}/`, did: "did:web:local.example" }] },
        "application/json",
      );
      const { r, w } = await federation(await list(0), undefined, { federate: [], federateDiscover: true }, document);
      assert.deepEqual(codes(r), ["um:reason:status:federation-discovery-failed"], local);
      assert.equal(w.requests.filter((q) => new URL(q.url).origin === new URL(local).origin).length, 0, local);
    }
  });

  it("refuses a peer that is not a base URL the client may ask", async () => {
    await assert.rejects(resolve(BASE, "urn:f:x", at(web(), NOW, { federate: ["http://peer.example"] })), TypeError);
  });
});
