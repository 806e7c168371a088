/**
 * The relying party's client (core/client/) and revocation-aware evaluation, against real
 * HTTP servers started here on 127.0.0.1 that serve manifests signed here with the test
 * key, status documents written here (EXT-OPT O2.2), redirects, 410, 404 and 5xx: status
 * semantics (O2.3) and errors (O2.4), the redirect rules, the HTTP cache (max-age,
 * If-None-Match, 304), `expiresAt` over the cache (contract §1.6), `nextCheck` and the
 * `revocationCursor` floor (O2.1), the statuses a client remembers (O2.3: revoked is
 * permanent, a suspension ends only by a newer cursor), a cache that fails (a store that
 * throws, a file in the way, a read-only or full disk), the manifest's media type, and
 * `manifest-resolver resolve` with `--http-cache` and `--keys`. Every receipt is held to
 * receiptSchema.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash, createPrivateKey } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import {
  ContextError,
  memoryCache,
  resolve,
  type Fetch,
  type HttpCache,
  type Resolution,
  type ResolveOptions,
  type TrustMemory,
  trustMemory,
} from "../core/client/index.ts";
import { receiptSchema, revokedReceipt, type Receipt } from "../core/evaluate/index.ts";
import { RULES } from "../core/rules/index.ts";
import { offlineEvaluate } from "./support/offline-evaluate.ts";
import { statusCursor, type StatusDocument } from "../core/status/status-document.ts";
import { RESOLVERS_PATH, STATUS_LIST_PREFIX, statusPath, umidPath } from "../core/umid-path.ts";
import { encodeStatusList, statusBitstring, type StatusCode } from "../core/status-list/bitstring.ts";
import { STATUS_CODES, statusListCredential } from "../core/status-list/credential.ts";
import { listStatusRef } from "../core/status-list/list-entry-ref.ts";
import { ifNoneMatchMatches } from "../edge/conditional.ts";
import { recallStatus, rememberStatus, type SeenStatus } from "../core/client/status-memory.ts";
import { fileCache } from "../scripts/client/file-cache.ts";
import { FIXTURE_KEY_REF, manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { ROOT } from "./support/paths.ts";
import { assertLineNames, assertUsageError, printedProblems } from "./support/problems.ts";
import { withTmpfs } from "./support/tmpfs.ts";

const key = createPrivateKey(readFileSync(join(ROOT, "tests/fixtures/sample-signing-key.TEST-ONLY.pem")));
const NOW = "2026-06-01T00:00:00Z";
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const validateReceipt = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(receiptSchema);
})();

function valid(receipt: Receipt): Receipt {
  assert.ok(validateReceipt(receipt), `${JSON.stringify(validateReceipt.errors)}\n${JSON.stringify(receipt, null, 2)}`);
  return receipt;
}

/** The receipt of a resolution that must have one, held to the schema. */
function receiptOf(result: Resolution): Receipt {
  assert.ok("receipt" in result, `not resolvable: ${"reason" in result ? result.reason : ""}`);
  return valid(result.receipt);
}

function reasonOf(result: Resolution): string {
  assert.ok(!("receipt" in result), `resolvable: ${JSON.stringify(result)}`);
  return result.reason;
}

/** A manifest signed with the test key; `signature` members beyond Profile A's are outside the signing input. */
function manifest(
  umid: string,
  signatureExtra: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const m = signed(manifestFor(umid, extra), key);
  return { ...m, signature: { ...(m.signature as Record<string, string>), ...signatureExtra } };
}

function statusDocument(
  manifestId: string,
  status: StatusDocument["status"],
  updatedAt = "2026-05-01T00:00:00Z",
  extra: Partial<StatusDocument> = {},
): StatusDocument {
  return { manifestId, status, updatedAt, cursor: statusCursor(updatedAt), ...extra };
}

type Route = (req: IncomingMessage, res: ServerResponse) => void;

interface Server {
  url: string;
  routes: Map<string, Route>;
  /** Every request, in order: its path and headers. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  hits(path: string): number;
  close(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const routes = new Map<string, Route>();
  const requests: Server["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url!, headers: req.headers });
    const route = routes.get(req.url!);
    if (route === undefined) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not_found" }));
    } else route(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A 200 with an ETag of the body's digest, or a 304 to a request that has it. */
function body(
  value: unknown,
  headers: Record<string, string> = {},
  type = "application/ld+json; charset=utf-8",
): Route {
  const text = JSON.stringify(value);
  const etag = headers.etag ?? `W/"sha256-${createHash("sha256").update(text).digest("base64url")}"`;
  return (req, res) => {
    const common = { etag, ...headers };
    if (ifNoneMatchMatches(req.headers["if-none-match"] ?? null, etag)) res.writeHead(304, common).end();
    else res.writeHead(200, { "content-type": type, ...common }).end(text);
  };
}

/**
 * A status document as a status endpoint that follows O2.1's suggestion serves it: application/json, ETag the quoted
 * cursor (ours is its body's digest).
 */
function statusBody(document: StatusDocument, headers: Record<string, string> = {}): Route {
  return body(
    document,
    { etag: `"${document.cursor}"`, "cache-control": "public, max-age=60", ...headers },
    "application/json",
  );
}

const redirectTo =
  (location: string, status = 307): Route =>
  (_req, res) =>
    res.writeHead(status, { location }).end();
const answer =
  (status: number): Route =>
  (_req, res) =>
    res.writeHead(status, { "content-type": "application/json" }).end("{}");

const server = await startServer();
after(() => server.close());

/** Publishes `m` at its resolve path (and its status at /status/<n>, when given); returns the resolve path. */
let published = 0;
function publish(m: Record<string, unknown>, headers: Record<string, string> = {}): string {
  const path = umidPath(String(m["@id"]));
  server.routes.set(path, body(m, headers));
  return path;
}
function statusPathFor(): string {
  return `/status/${++published}`;
}

/** Offline: the fixture's keyRef is a did:web of a host that does not exist; tests/did-web.test.ts resolves keys. */
const at = (now: string, more: Partial<ResolveOptions> = {}): ResolveOptions => ({
  context: { now, omitProcessedAt: true },
  offline: true,
  ...more,
});

describe("evaluate() with a resolved revocation status (EXT-OPT O2.3, O2.4)", () => {
  const text = JSON.stringify(manifest("urn:rev:direct"));
  it("without one: unchecked, no reason, no warning, as before", async () => {
    const r = valid(await offlineEvaluate(text, { now: NOW }));
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason, r.warnings],
      ["accepted", "unchecked", undefined, []],
    );
  });
  it("without one, for a manifest that names a statusRef: unchecked, offline, accepted with warnings (O2.4)", async () => {
    const withRef = JSON.stringify(
      manifest("urn:rev:offline", { statusRef: "https://status.example/urn:rev:offline" }),
    );
    const r = valid(await offlineEvaluate(withRef, { now: NOW }));
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason, r.warnings.map((w) => w.code)],
      ["accepted-with-warnings", "unchecked", "um:reason:status:offline", ["um:reason:status:offline"]],
    );
  });
  it("active: accepted, no warning", async () => {
    const r = valid(await offlineEvaluate(text, { now: NOW }, { revocation: { status: "active" } }));
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason, r.warnings],
      ["accepted", "active", undefined, []],
    );
  });
  it("revoked: rejected at Verify, what follows not evaluated", async () => {
    const r = valid(
      await offlineEvaluate(text, { now: NOW }, { revocation: { status: "revoked", message: "holder says so" } }),
    );
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason, r.signatureCheck, r.freshnessCheck],
      ["rejected", "revoked", "um:reason:status:revoked", "valid", "fresh"],
    );
    assert.deepEqual(
      [r.holderBindingStatus, r.presentationProofStatus, r.livenessStatus.freshnessClass],
      ["not-evaluated", "not-evaluated", "not-evaluated"],
    );
    assert.deepEqual(r.warnings, [{ code: "um:reason:status:revoked", message: "holder says so" }]);
  });
  it("suspended: accepted with warnings", async () => {
    const r = valid(await offlineEvaluate(text, { now: NOW }, { revocation: { status: "suspended" } }));
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.warnings.map((w) => w.code)],
      ["accepted-with-warnings", "suspended", ["um:reason:status:suspended"]],
    );
  });
  it("unchecked with a reason: a warning and the reason, never a rejection", async () => {
    const r = valid(
      await offlineEvaluate(
        text,
        { now: NOW },
        { revocation: { status: "unchecked", code: "um:reason:status:http-502", message: "502" } },
      ),
    );
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason, r.warnings.map((w) => w.code)],
      ["accepted-with-warnings", "unchecked", "um:reason:status:http-502", ["um:reason:status:http-502"]],
    );
  });
  it("records no status for a manifest whose signature fails: its statusRef is nobody's", async () => {
    const tampered = JSON.stringify({ ...JSON.parse(text), subject: "did:web:mallory.example" });
    const r = valid(await offlineEvaluate(tampered, { now: NOW }, { revocation: { status: "revoked" } }));
    assert.deepEqual(
      [r.outcome, r.signatureCheck, r.revocationStatus, r.warnings.map((w) => w.code)],
      ["rejected", "invalid", "unchecked", ["um:reason:crypto:signature-invalid"]],
    );
  });
  describe("a policy that requires an active status (core §1.6.6: requireActiveStatus)", () => {
    const strict = { now: NOW, requireActiveStatus: true };
    for (const [given, status, codes] of [
      [undefined, "unchecked", ["um:reason:status:active-required"]],
      [
        { status: "unchecked", code: "um:reason:status:endpoint-unavailable" },
        "unchecked",
        ["um:reason:status:endpoint-unavailable", "um:reason:status:active-required"],
      ],
      [{ status: "suspended" }, "suspended", ["um:reason:status:suspended", "um:reason:status:active-required"]],
      [{ status: "revoked" }, "revoked", ["um:reason:status:revoked"]],
    ] as const) {
      it(`${given === undefined ? "no status" : given.status}: rejected`, async () => {
        const r = valid(await offlineEvaluate(text, strict, given === undefined ? {} : { revocation: given }));
        assert.deepEqual([r.outcome, r.revocationStatus, r.warnings.map((w) => w.code)], ["rejected", status, codes]);
      });
    }
    it("active: accepted", async () => {
      const r = valid(await offlineEvaluate(text, strict, { revocation: { status: "active" } }));
      assert.deepEqual([r.outcome, r.warnings], ["accepted", []]);
    });
    it("a requireActiveStatus that is not a boolean is a context error", async () => {
      await assert.rejects(
        offlineEvaluate(text, { now: NOW, requireActiveStatus: "yes" as unknown as boolean }),
        (e: Error) => e instanceof ContextError && e.message.includes("requireActiveStatus must be true or false"),
      );
    });
  });
  it("refuses a reason that is not a registry code, naming it", async () => {
    await assert.rejects(
      offlineEvaluate(text, { now: NOW }, { revocation: { status: "unchecked", code: "endpoint down" } }),
      (e: Error) => e.message.includes("revocation.code") && e.message.includes('"endpoint down"'),
    );
  });
  it("revokedReceipt: rejected, revoked, every check not evaluated", async () => {
    const r = valid(await revokedReceipt("urn:rev:gone", { now: NOW }));
    assert.deepEqual(
      [
        r.manifestId,
        r.outcome,
        r.revocationStatus,
        r.revocationReason,
        r.signatureCheck,
        r.freshnessCheck,
        r.processedAt,
      ],
      [
        "urn:rev:gone",
        "rejected",
        "revoked",
        "um:reason:status:revoked",
        "not-evaluated",
        "not-evaluated",
        "2026-06-01T00:00:00.000Z",
      ],
    );
  });
});

describe("resolve(): the manifest's status (EXT-OPT O2)", () => {
  /** Publishes a manifest whose statusRef is served by `route` (or is `statusRef`), and resolves it. */
  async function withStatus(umid: string, route: Route | string, options: ResolveOptions = at(NOW)) {
    const path = statusPathFor();
    const statusRef = typeof route === "string" ? route : `${server.url}${path}`;
    if (typeof route !== "string") server.routes.set(path, route);
    publish(manifest(umid, { statusRef }));
    return { result: await resolve(server.url, umid, options), path };
  }

  it("active: accepted, revocationStatus active", async () => {
    const { result } = await withStatus("urn:st:active", statusBody(statusDocument("urn:st:active", "active")));
    const r = receiptOf(result);
    assert.deepEqual([r.outcome, r.revocationStatus, r.warnings], ["accepted", "active", []]);
  });
  it("suspended: accepted with warnings, saying since when and why", async () => {
    const { result } = await withStatus(
      "urn:st:suspended",
      statusBody(statusDocument("urn:st:suspended", "suspended", "2026-05-02T00:00:00Z", { reason: "under review" })),
    );
    const r = receiptOf(result);
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason],
      ["accepted-with-warnings", "suspended", "um:reason:status:suspended"],
    );
    assert.equal(r.warnings[0]!.code, "um:reason:status:suspended");
    // Since when, and why: the document's updatedAt and reason.
    assertLineNames(r.warnings[0]!.message, "2026-05-02T00:00:00Z", "under review");
  });
  it("revoked: rejected", async () => {
    const { result } = await withStatus("urn:st:revoked", statusBody(statusDocument("urn:st:revoked", "revoked")));
    const r = receiptOf(result);
    assert.deepEqual([r.outcome, r.revocationStatus, r.holderBindingStatus], ["rejected", "revoked", "not-evaluated"]);
  });
  it("endpoint down: unchecked, endpoint-unavailable, accepted with warnings", async () => {
    const down = await startServer();
    await down.close();
    const { result } = await withStatus("urn:st:down", `${down.url}/status`);
    const r = receiptOf(result);
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason],
      ["accepted-with-warnings", "unchecked", "um:reason:status:endpoint-unavailable"],
    );
    assert.equal(r.warnings[0]!.code, "um:reason:status:endpoint-unavailable");
    assertLineNames(r.warnings[0]!.message, `${down.url}/status`);
  });
  for (const [status, code] of [
    [404, "um:reason:status:endpoint-unknown-manifest"],
    [503, "um:reason:status:endpoint-unavailable"],
    [500, "um:reason:status:http-500"],
    [401, "um:reason:status:http-401"],
  ] as const) {
    it(`status endpoint answers ${status}: unchecked, ${code}`, async () => {
      const { result } = await withStatus(`urn:st:http-${status}`, answer(status));
      const r = receiptOf(result);
      assert.deepEqual(
        [r.outcome, r.revocationStatus, r.revocationReason, r.warnings.map((w) => w.code)],
        ["accepted-with-warnings", "unchecked", code, [code]],
      );
    });
  }
  it("a status endpoint that does not answer in time: unchecked, endpoint-unavailable", async () => {
    const { result, path } = await withStatus("urn:st:slow", () => {}, at(NOW, { timeoutMs: 300 }));
    const r = receiptOf(result);
    assert.deepEqual(
      [r.outcome, r.revocationReason, r.warnings.map((w) => w.code)],
      ["accepted-with-warnings", "um:reason:status:endpoint-unavailable", ["um:reason:status:endpoint-unavailable"]],
    );
    assertLineNames(r.warnings[0]!.message, `${server.url}${path}`);
  });
  it("a manifest whose signature fails: its statusRef is never asked (core §3.1.2: verify first)", async () => {
    // The statusRef of a forged manifest is the forger's: asking it would let any manifest make this client
    // request any URL it names.
    const path = statusPathFor();
    server.routes.set(path, statusBody(statusDocument("urn:st:forged", "active")));
    const signed = manifest("urn:st:forged", { statusRef: `${server.url}${path}` });
    publish({ ...signed, subject: "did:web:mallory.example" });
    const r = receiptOf(await resolve(server.url, "urn:st:forged", at(NOW)));
    assert.deepEqual([r.outcome, r.signatureCheck, r.revocationStatus], ["rejected", "invalid", "unchecked"]);
    assert.equal(server.hits(path), 0, "the forged manifest's statusRef was requested");
  });
  it("a statusRef that is not https: is not resolved (O2.1: unreachable), and never asked", async () => {
    const before = server.requests.length;
    const { result } = await withStatus("urn:st:plain", "http://status.example/urn:st:plain");
    const r = receiptOf(result);
    assert.deepEqual(
      [r.outcome, r.revocationStatus, r.revocationReason],
      ["accepted-with-warnings", "unchecked", "um:reason:status:insecure-ref"],
    );
    assert.equal(server.requests.length, before + 1, "only the manifest was requested");
  });
  it("a status endpoint that redirects to plain http: is not followed", async () => {
    const { result } = await withStatus("urn:st:downgrade", redirectTo("http://status.example/s"));
    assert.equal(receiptOf(result).revocationReason, "um:reason:status:insecure-ref");
  });
  it("a status document for another manifestId: unchecked, manifest-mismatch", async () => {
    const { result } = await withStatus("urn:st:other", statusBody(statusDocument("urn:st:someone-else", "active")));
    const r = receiptOf(result);
    assert.deepEqual([r.revocationStatus, r.revocationReason], ["unchecked", "um:reason:status:manifest-mismatch"]);
    // Whose it is, and whose it should be.
    assertLineNames(r.warnings[0]!.message, '"urn:st:someone-else"', '"urn:st:other"');
  });
  it("a status response that is not application/json, or not a status document: invalid-response", async () => {
    const typed = await withStatus("urn:st:typed", body(statusDocument("urn:st:typed", "revoked"), {}, "text/plain"));
    assert.deepEqual(
      [receiptOf(typed.result).revocationReason, receiptOf(typed.result).outcome],
      ["um:reason:status:invalid-response", "accepted-with-warnings"],
    );
    const shapeless = await withStatus(
      "urn:st:shapeless",
      body({ manifestId: "urn:st:shapeless", status: "gone" }, {}, "application/json"),
    );
    assert.deepEqual(
      [receiptOf(shapeless.result).revocationReason, receiptOf(shapeless.result).warnings.map((w) => w.code)],
      ["um:reason:status:invalid-response", ["um:reason:status:invalid-response"]],
    );
  });
  it(
    "an updatedAt of 60,000 characters: quoted as an excerpt; one that is not RFC " +
      "3339 (an HTTP date): invalid-response",
    async () => {
      const long = `2026-05-02T00:00:00.${"0".repeat(60_000)}Z`;
      const { result } = await withStatus(
        "urn:st:long-date",
        statusBody(statusDocument("urn:st:long-date", "suspended", long)),
      );
      const r = receiptOf(result);
      assert.deepEqual([r.revocationStatus, r.revocationReason], ["suspended", "um:reason:status:suspended"]);
      assert.ok(JSON.stringify(r).length < 5_000, `${JSON.stringify(r).length} characters`);
      const http = "Sat, 02 May 2026 00:00:00 GMT";
      const dated = await withStatus(
        "urn:st:http-date",
        body(
          { manifestId: "urn:st:http-date", status: "suspended", updatedAt: http, cursor: "1" },
          {},
          "application/json",
        ),
      );
      assert.equal(receiptOf(dated.result).revocationReason, "um:reason:status:invalid-response");
    },
  );
});

describe("resolve(): a manifest with no statusRef, asked at the resolver's own status endpoint", () => {
  const verdict = (r: Receipt) => [r.outcome, r.revocationStatus, r.revocationReason, r.warnings.map((w) => w.rule)];
  /** Publishes an unreferenced manifest and lists `document` for it at the resolver's status endpoint. */
  function listed(umid: string, route: Route | undefined, m = manifest(umid)): string {
    publish(m);
    const path = statusPath(umid);
    if (route === undefined) server.routes.delete(path);
    else server.routes.set(path, route);
    return path;
  }

  it("suspended there: the receipt says suspended, and answeredStatus says since when, why and where", async () => {
    const umid = "urn:listed:suspended";
    const path = listed(
      umid,
      statusBody(statusDocument(umid, "suspended", "2026-05-10T00:00:00Z", { reason: "key under review" })),
    );
    const result = await resolve(server.url, umid, at(NOW));
    assert.deepEqual(verdict(receiptOf(result)), [
      "accepted-with-warnings",
      "suspended",
      "um:reason:status:suspended",
      [undefined],
    ]);
    assert.equal(receiptOf(result).revocationResolvedBy, `${server.url}${path}`);
    assert.ok("receipt" in result);
    assert.deepEqual(result.answeredStatus, {
      value: "suspended",
      since: "2026-05-10T00:00:00Z",
      reason: "key under review",
      url: `${server.url}${path}`,
    });
  });
  it("active there: accepted, active, as a statusRef's answer would be", async () => {
    const umid = "urn:listed:active";
    const path = listed(umid, statusBody(statusDocument(umid, "active", "2026-05-01T00:00:00Z")));
    const result = await resolve(server.url, umid, at(NOW));
    assert.deepEqual(verdict(receiptOf(result)), ["accepted", "active", undefined, []]);
    assert.ok("receipt" in result);
    assert.deepEqual(result.answeredStatus, {
      value: "active",
      since: "2026-05-01T00:00:00Z",
      url: `${server.url}${path}`,
    });
  });
  it("revoked there: rejected, and remembered as a revocation", async () => {
    const umid = "urn:listed:revoked";
    const cache = memoryCache();
    const path = listed(umid, statusBody(statusDocument(umid, "revoked", "2026-05-10T00:00:00Z")));
    assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(NOW, { cache })))), [
      "rejected",
      "revoked",
      "um:reason:status:revoked",
      [undefined],
    ]);
    server.routes.set(path, statusBody(statusDocument(umid, "active", "2026-05-20T00:00:00Z")));
    assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(later(660), { cache })))), [
      "rejected",
      "revoked",
      "um:reason:status:revoked",
      ["status/revocation-contradicted"],
    ]);
  });
  it("a 404 there: unchecked with um:reason:status:not-listed (rule status/not-listed), no warning, accepted", async () => {
    const umid = "urn:listed:none";
    listed(umid, undefined);
    const result = await resolve(server.url, umid, at(NOW));
    assert.deepEqual(verdict(receiptOf(result)), ["accepted", "unchecked", "um:reason:status:not-listed", []]);
    assert.ok("receipt" in result && result.answeredStatus === undefined);
    assert.equal(RULES["status/not-listed"].severity, "note");
    const required = receiptOf(
      await resolve(server.url, umid, at(NOW, { context: { now: NOW, requireActiveStatus: true } })),
    );
    assert.deepEqual(
      [required.outcome, required.revocationReason, required.warnings.map((w) => w.code)],
      ["rejected", "um:reason:status:not-listed", ["um:reason:status:active-required"]],
    );
  });
  it("no answer there: unchecked with endpoint-unavailable, as a statusRef's would be", async () => {
    const umid = "urn:listed:down";
    listed(umid, answer(503));
    const r = receiptOf(await resolve(server.url, umid, at(NOW)));
    assert.deepEqual(verdict(r), [
      "accepted-with-warnings",
      "unchecked",
      "um:reason:status:endpoint-unavailable",
      [undefined],
    ]);
  });
  it("a forged manifest, or another UMID's, never makes the client ask the status endpoint", async () => {
    const forged = manifest("urn:listed:forged");
    const path = listed("urn:listed:forged", statusBody(statusDocument("urn:listed:forged", "active")), {
      ...forged,
      name: "changed after signing",
    });
    const r = receiptOf(await resolve(server.url, "urn:listed:forged", at(NOW)));
    assert.deepEqual([r.signatureCheck, r.revocationStatus, r.revocationReason], ["invalid", "unchecked", undefined]);
    assert.equal(server.hits(path), 0);
    const other = statusPath("urn:listed:asked");
    server.routes.set(other, statusBody(statusDocument("urn:listed:asked", "active")));
    server.routes.set(umidPath("urn:listed:asked"), body(manifest("urn:listed:other")));
    const mismatched = receiptOf(await resolve(server.url, "urn:listed:asked", at(NOW)));
    assert.equal(mismatched.outcome, "rejected");
    assert.equal(server.hits(other), 0);
  });
  it("with statusOrigins that leave out the resolver's origin, the resolver is not asked: unchecked, no reason", async () => {
    const umid = "urn:listed:not-allowed";
    const path = listed(umid, statusBody(statusDocument(umid, "suspended")));
    const r = receiptOf(await resolve(server.url, umid, at(NOW, { statusOrigins: ["https://status.example"] })));
    assert.deepEqual(verdict(r), ["accepted", "unchecked", undefined, []]);
    assert.equal(server.hits(path), 0);
  });
  it("a 410: revoked, and answeredStatus and the warning give the date and reason the status endpoint lists", async () => {
    const umid = "urn:listed:gone";
    server.routes.set(umidPath(umid), answer(410));
    const path = statusPath(umid);
    server.routes.set(
      path,
      statusBody(statusDocument(umid, "revoked", "2026-05-12T08:00:00Z", { reason: "key compromised" })),
    );
    const result = await resolve(server.url, umid, at(NOW));
    const r = receiptOf(result);
    assert.deepEqual(verdict(r), ["rejected", "revoked", "um:reason:status:revoked", [undefined]]);
    assert.match(r.warnings[0]!.message, /since 2026-05-12T08:00:00Z.*key compromised/);
    assert.ok("receipt" in result);
    assert.deepEqual(result.answeredStatus, {
      value: "revoked",
      since: "2026-05-12T08:00:00Z",
      reason: "key compromised",
      url: `${server.url}${path}`,
    });
  });
  it("a 410 whose status endpoint fails, or lists another status: revoked all the same, with no answeredStatus", async () => {
    for (const [umid, route] of [
      ["urn:listed:gone-down", answer(503)],
      ["urn:listed:gone-active", statusBody(statusDocument("urn:listed:gone-active", "active"))],
      ["urn:listed:gone-other", statusBody(statusDocument("urn:listed:someone-else", "revoked"))],
    ] as const) {
      server.routes.set(umidPath(umid), answer(410));
      server.routes.set(statusPath(umid), route);
      const result = await resolve(server.url, umid, at(NOW));
      const gone = await revokedReceipt(umid, { now: NOW, omitProcessedAt: true });
      assert.deepEqual(receiptOf(result), gone, umid);
      assert.ok("receipt" in result && result.answeredStatus === undefined, umid);
    }
  });
});

describe("resolve(): the resolver's answers and redirects", () => {
  it("follows a 307 to the manifest, and reports where it came from", async () => {
    const m = manifest("urn:rd:moved");
    server.routes.set("/canonical/moved", body(m));
    server.routes.set(umidPath("urn:rd:moved"), redirectTo("/canonical/moved"));
    const result = await resolve(server.url, "urn:rd:moved", at(NOW));
    assert.equal(receiptOf(result).outcome, "accepted");
    assert.equal((result as { manifestUrl: string }).manifestUrl, `${server.url}/canonical/moved`);
    assert.deepEqual((result as { manifest: unknown }).manifest, m);
  });
  it("resolves a UMID that needs the b64u: path (a slash in it)", async () => {
    const path = publish(manifest("urn:rd:with/slash"));
    assert.ok(path.startsWith("/b64u:"));
    assert.equal(receiptOf(await resolve(`${server.url}/`, "urn:rd:with/slash", at(NOW))).outcome, "accepted");
  });
  /** A chain of `hops` redirects of every redirect status, relative and absolute, ending at the manifest. */
  function chain(umid: string, hops: number) {
    server.routes.set(`/chain/${umid}/end`, body(manifest(umid)));
    const statuses = [307, 301, 302, 303, 308];
    for (let i = 0; i < hops; i++) {
      const from = i === 0 ? umidPath(umid) : `/chain/${umid}/${i}`;
      const to = i === hops - 1 ? `/chain/${umid}/end` : `/chain/${umid}/${i + 1}`;
      server.routes.set(from, redirectTo(i % 2 === 0 ? to : `${server.url}${to}`, statuses[i % statuses.length]));
    }
  }
  it("follows 5 redirects", async () => {
    chain("urn:rd:five", 5);
    assert.equal(receiptOf(await resolve(server.url, "urn:rd:five", at(NOW))).outcome, "accepted");
  });
  it("refuses a sixth, without requesting it", async () => {
    chain("urn:rd:six", 6);
    const reason = reasonOf(await resolve(server.url, "urn:rd:six", at(NOW)));
    // Where it began, the fifth hop, and where the sixth would have gone.
    assertLineNames(
      reason,
      `${server.url}/urn%3Ard%3Asix`,
      `${server.url}/chain/urn:rd:six/5`,
      `${server.url}/chain/urn:rd:six/end`,
    );
    assert.equal(server.hits("/chain/urn:rd:six/5"), 1);
    assert.equal(server.hits("/chain/urn:rd:six/end"), 0);
  });
  it("refuses a redirect to plain http: off this machine", async () => {
    server.routes.set(umidPath("urn:rd:downgrade"), redirectTo("http://canonical.example/m"));
    const asked: string[] = [];
    const recording: Fetch = (url, init) => {
      asked.push(url);
      return fetch(url, init);
    };
    const result = await resolve(server.url, "urn:rd:downgrade", at(NOW, { fetch: recording }));
    assertLineNames(reasonOf(result), "http://canonical.example/m");
    assert.deepEqual(asked, [`${server.url}/urn%3Ard%3Adowngrade`], "not followed");
  });
  it("core §3.3: rejects, with a receipt, a manifest found through a redirect whose @id is another UMID", async () => {
    const other = await startServer();
    try {
      other.routes.set("/m", body(manifest("urn:rd:impostor")));
      server.routes.set(umidPath("urn:rd:asked"), redirectTo(`${other.url}/m`));
      const r = receiptOf(await resolve(server.url, "urn:rd:asked", at(NOW)));
      assert.deepEqual(
        [r.manifestId, r.outcome, r.signatureCheck, r.warnings.map((w) => [w.code, w.rule, w.pointer])],
        [
          "urn:rd:impostor",
          "rejected",
          "not-evaluated",
          [["um:reason:arrive:umid-mismatch", "resolve/umid-mismatch", "/@id"]],
        ],
      );
      // Its @id, and the UMID asked for.
      assertLineNames(r.warnings[0]!.message, '"urn:rd:impostor"', '"urn:rd:asked"');
    } finally {
      await other.close();
    }
  });
  describe("in a browser, where redirect: manual gives an opaque redirect (no Location)", () => {
    /** A browser's fetch: a redirect answered as opaque to `manual`; `follow` as given. */
    const browser =
      (follow: Fetch): Fetch =>
      async (url, init) => {
        if (init.redirect !== "manual") return follow(url, init);
        const response = await fetch(url, init);
        if (response.status < 300 || response.status > 399) return response;
        return {
          type: "opaqueredirect",
          status: 0,
          headers: new Headers(),
          body: null,
          url: "",
        } as unknown as Response;
      };
    it("lets the browser follow, and uses where it ended when that is secure", async () => {
      server.routes.set("/canonical/browser", body(manifest("urn:rd:browser")));
      server.routes.set(umidPath("urn:rd:browser"), redirectTo("/canonical/browser"));
      const result = await resolve(server.url, "urn:rd:browser", at(NOW, { fetch: browser(fetch) }));
      assert.equal(receiptOf(result).outcome, "accepted");
      assert.equal((result as { manifestUrl: string }).manifestUrl, `${server.url}/canonical/browser`);
    });
    it("refuses where it ended when that is plain http: off this machine", async () => {
      server.routes.set(umidPath("urn:rd:browser-downgrade"), redirectTo("http://canonical.example/m"));
      const endedElsewhere: Fetch = async () =>
        Object.defineProperty(new Response(JSON.stringify(manifest("urn:rd:browser-downgrade"))), "url", {
          value: "http://canonical.example/m",
        });
      const reason = reasonOf(
        await resolve(server.url, "urn:rd:browser-downgrade", at(NOW, { fetch: browser(endedElsewhere) })),
      );
      assertLineNames(reason, "http://canonical.example/m");
    });
  });
  it("410: the revoked receipt", async () => {
    server.routes.set(umidPath("urn:rd:gone"), answer(410));
    const r = receiptOf(await resolve(server.url, "urn:rd:gone", at(NOW)));
    assert.deepEqual(
      [r.manifestId, r.outcome, r.revocationStatus, r.signatureCheck],
      ["urn:rd:gone", "rejected", "revoked", "not-evaluated"],
    );
  });
  it("404: not found", async () => {
    const result = await resolve(server.url, "urn:rd:unknown", at(NOW));
    assert.deepEqual(Object.keys(result), ["reason", "status"]);
    assert.equal((result as { status: number }).status, 404);
    assertLineNames(reasonOf(result), '"urn:rd:unknown"', `${server.url}/urn%3Ard%3Aunknown`);
  });
  it("500, and a resolver that does not answer: not resolvable, naming the URL", async () => {
    server.routes.set(umidPath("urn:rd:broken"), answer(500));
    const broken = await resolve(server.url, "urn:rd:broken", at(NOW));
    assert.deepEqual(Object.keys(broken), ["reason", "status"]);
    assert.equal((broken as { status: number }).status, 500);
    assertLineNames(reasonOf(broken), `${server.url}/urn%3Ard%3Abroken`);
    const down = await startServer();
    await down.close();
    const refused = await resolve(down.url, "urn:rd:x", at(NOW));
    assert.deepEqual(Object.keys(refused), ["reason"]);
    assertLineNames(reasonOf(refused), `${down.url}/urn%3Ard%3Ax`, "ECONNREFUSED");
  });
  it("evaluates what is served, however bad: a body over the size limit is rejected, not read whole", async () => {
    server.routes.set(umidPath("urn:rd:big"), (_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("x".repeat(5000)),
    );
    const r = receiptOf(await resolve(server.url, "urn:rd:big", at(NOW, { limits: { maxManifestBytes: 1000 } })));
    assert.deepEqual([r.outcome, r.warnings[0]!.code], ["rejected", "um:reason:arrive:too-large"]);
  });
  it("throws for a base URL that is not https: or loopback, and for a bad context", async () => {
    await assert.rejects(
      resolve("http://resolver.example", "urn:x"),
      (e: Error) => e instanceof TypeError && e.message.includes('"http://resolver.example"'),
    );
    await assert.rejects(
      resolve(server.url, "urn:x", { context: { now: "soon" } }),
      (e: Error) => e instanceof ContextError && e.message.includes('"soon"'),
    );
  });
});

describe("resolve(): the HTTP cache", () => {
  it(
    "uses a manifest within max-age without a request, then revalidates it with " + "If-None-Match and uses the 304",
    async () => {
      const path = publish(manifest("urn:c:maxage"), { "cache-control": "public, max-age=60" });
      const cache = memoryCache();
      assert.equal(receiptOf(await resolve(server.url, "urn:c:maxage", at(NOW, { cache }))).outcome, "accepted");
      assert.equal(receiptOf(await resolve(server.url, "urn:c:maxage", at(later(59), { cache }))).outcome, "accepted");
      assert.equal(server.hits(path), 1, "no request within max-age");
      assert.equal(receiptOf(await resolve(server.url, "urn:c:maxage", at(later(60), { cache }))).outcome, "accepted");
      assert.equal(server.hits(path), 2);
      const revalidation = server.requests.filter((r) => r.path === path)[1]!;
      assert.match(String(revalidation.headers["if-none-match"]), /^W\/"sha256-/);
      // The 304 refreshed the entry: fresh again for 60 s from then.
      await resolve(server.url, "urn:c:maxage", at(later(119), { cache }));
      assert.equal(server.hits(path), 2);
    },
  );
  it(
    "never uses a manifest past its expiresAt, whatever the cache says: revalidated, " + "then rejected as expired",
    async () => {
      const path = publish(manifest("urn:c:expiring", {}, { expiresAt: "2026-06-01T00:10:00Z" }), {
        "cache-control": "public, max-age=86400",
      });
      const cache = memoryCache();
      assert.equal(receiptOf(await resolve(server.url, "urn:c:expiring", at(NOW, { cache }))).outcome, "accepted");
      const r = receiptOf(await resolve(server.url, "urn:c:expiring", at(later(20 * 60), { cache })));
      assert.deepEqual([r.outcome, r.freshnessCheck], ["rejected", "expired"]);
      assert.equal(server.hits(path), 2, "the expired entry was revalidated, not used as fresh");
      assert.ok(server.requests.filter((q) => q.path === path)[1]!.headers["if-none-match"] !== undefined);
    },
  );
  it("keeps nothing a response says not to store", async () => {
    const path = publish(manifest("urn:c:nostore"), { "cache-control": "no-store, max-age=60" });
    const cache = memoryCache();
    await resolve(server.url, "urn:c:nostore", at(NOW, { cache }));
    await resolve(server.url, "urn:c:nostore", at(NOW, { cache }));
    assert.equal(server.hits(path), 2);
    assert.equal(server.requests.filter((q) => q.path === path)[1]!.headers["if-none-match"], undefined);
  });

  describe("status documents: nextCheck and the revocationCursor floor (O2.1)", () => {
    const first = statusDocument("urn:c:status", "active", "2026-05-01T00:00:00Z", { nextCheck: "PT5M" });
    const statusPath = "/status/cached";
    const manifestPath = umidPath("urn:c:status");
    const cache = memoryCache();
    const statusRequests = () => server.requests.filter((r) => r.path === statusPath);
    before(() => {
      server.routes.set(statusPath, statusBody(first));
      // The manifest itself is never fresh: only the status is served from the cache.
      publish(manifest("urn:c:status", { statusRef: `${server.url}${statusPath}` }), { "cache-control": "no-cache" });
    });

    it("asks once, then not again within nextCheck", async () => {
      assert.equal(receiptOf(await resolve(server.url, "urn:c:status", at(NOW, { cache }))).revocationStatus, "active");
      assert.equal(
        receiptOf(await resolve(server.url, "urn:c:status", at(later(299), { cache }))).revocationStatus,
        "active",
      );
      assert.deepEqual([statusRequests().length, server.hits(manifestPath)], [1, 2]);
    });
    it(
      "after nextCheck, revalidates with If-None-Match: the stored cursor, quoted; a " + "304 keeps the status",
      async () => {
        assert.equal(
          receiptOf(await resolve(server.url, "urn:c:status", at(later(300), { cache }))).revocationStatus,
          "active",
        );
        assert.equal(statusRequests().length, 2);
        assert.equal(statusRequests()[1]!.headers["if-none-match"], `"${first.cursor}"`);
      },
    );
    it(
      "a manifest whose revocationCursor is newer than the cached status forces an " +
        "unconditional request, within nextCheck",
      async () => {
        const suspended = statusDocument("urn:c:status", "suspended", "2026-05-20T00:00:00Z", { nextCheck: "PT5M" });
        server.routes.set(statusPath, statusBody(suspended));
        // Within nextCheck of the 304 above, a manifest without a newer floor still uses the cache ...
        assert.equal(
          receiptOf(await resolve(server.url, "urn:c:status", at(later(301), { cache }))).revocationStatus,
          "active",
        );
        assert.equal(statusRequests().length, 2);
        // ... one re-issued with revocationCursor = the new status's cursor does not.
        publish(
          manifest("urn:c:status", { statusRef: `${server.url}${statusPath}`, revocationCursor: suspended.cursor! }),
          { "cache-control": "no-cache" },
        );
        const r = receiptOf(await resolve(server.url, "urn:c:status", at(later(302), { cache })));
        assert.deepEqual([r.revocationStatus, r.outcome], ["suspended", "accepted-with-warnings"]);
        assert.equal(statusRequests().length, 3);
        assert.equal(
          statusRequests()[2]!.headers["if-none-match"],
          undefined,
          "older than the floor: revalidated unconditionally",
        );
        // The new status meets the floor: used from the cache again.
        await resolve(server.url, "urn:c:status", at(later(303), { cache }));
        assert.equal(statusRequests().length, 3);
      },
    );
    it(
      "revalidates with the stored ETag beside the cursor: a 304 from a resolver whose " +
        "ETag is its document's digest (ours), no reason kept past its change",
      async () => {
        const path = "/status/digest-etag";
        const digestServed = (document: StatusDocument) =>
          body(document, { "cache-control": "public, max-age=60" }, "application/json");
        const suspended = statusDocument("urn:c:digest", "suspended", "2026-05-01T00:00:00Z", {
          nextCheck: "PT5M",
          reason: "audit",
        });
        server.routes.set(path, digestServed(suspended));
        publish(manifest("urn:c:digest", { statusRef: `${server.url}${path}` }), { "cache-control": "no-cache" });
        const own = memoryCache();
        const asked = () => server.requests.filter((r) => r.path === path);
        const warningsOf = async (seconds: number) =>
          receiptOf(await resolve(server.url, "urn:c:digest", at(later(seconds), { cache: own })))
            .warnings.map((w) => w.message)
            .join("\n");
        assert.match(await warningsOf(0), /\(audit\)/);
        assert.match(await warningsOf(300), /\(audit\)/);
        const validators = String(asked()[1]!.headers["if-none-match"]);
        assert.ok(validators.includes(`"${suspended.cursor}"`), validators);
        // So the server answered 304: the stored ETag matches what it serves.
        assert.ok(
          ifNoneMatchMatches(
            validators,
            `W/"sha256-${createHash("sha256").update(JSON.stringify(suspended)).digest("base64url")}"`,
          ),
          validators,
        );
        server.routes.set(path, digestServed({ ...suspended, reason: "fraud" }));
        assert.match(await warningsOf(600), /\(fraud\)/);
      },
    );
    it("a nextCheck over a day is held to a day: a forged P36500D cannot pin a status", async () => {
      const path = "/status/long-next-check";
      server.routes.set(
        path,
        statusBody(statusDocument("urn:c:long", "active", "2026-05-01T00:00:00Z", { nextCheck: "P36500D" })),
      );
      publish(manifest("urn:c:long", { statusRef: `${server.url}${path}` }));
      const own = memoryCache();
      for (const seconds of [0, 86_399, 86_400])
        await resolve(server.url, "urn:c:long", at(later(seconds), { cache: own }));
      assert.equal(server.hits(path), 2);
    });
    it("a status document without nextCheck is kept 10 minutes (PT10M)", async () => {
      const path = "/status/default-next-check";
      server.routes.set(path, statusBody(statusDocument("urn:c:default", "active")));
      publish(manifest("urn:c:default", { statusRef: `${server.url}${path}` }));
      const own = memoryCache();
      for (const seconds of [0, 599, 600])
        await resolve(server.url, "urn:c:default", at(later(seconds), { cache: own }));
      assert.equal(server.hits(path), 2);
    });
  });
});

describe("the file cache (--http-cache DIR)", () => {
  const dir = mkdtempSync(join(tmpdir(), "um-resolve-cache-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps one JSON file per key, written whole, and reads it back", async () => {
    const cache: HttpCache = fileCache(join(dir, "a"));
    const entry = { url: "https://r.example/x", body: "{}", etag: 'W/"1"', storedAt: 1, maxAge: 60 };
    await cache.set("https://r.example/x", entry);
    assert.deepEqual(await cache.get("https://r.example/x"), entry);
    assert.equal(await cache.get("https://r.example/y"), undefined);
    const files = readdirSync(join(dir, "a"));
    assert.deepEqual(
      files,
      [`${createHash("sha256").update("https://r.example/x").digest("hex")}.json`],
      "no temporary file left",
    );
  });
  it("counts a corrupt or foreign entry as absent", async () => {
    const cache = fileCache(join(dir, "b"));
    await cache.set("k", { url: "u", body: "b", storedAt: 1, maxAge: 1 });
    const file = join(dir, "b", readdirSync(join(dir, "b"))[0]!);
    writeFileSync(file, '{"key":"k","entry":{"url":"u"');
    assert.equal(await cache.get("k"), undefined);
    writeFileSync(file, JSON.stringify({ key: "another key", entry: { url: "u", body: "b", storedAt: 1, maxAge: 1 } }));
    assert.equal(await cache.get("k"), undefined);
    writeFileSync(file, JSON.stringify({ key: "k", entry: { url: "u", body: 42, storedAt: 1, maxAge: 1 } }));
    assert.equal(await cache.get("k"), undefined);
  });
  it("counts an entry that is a FIFO, or a link to a device or another file, as " +
    "absent, without blocking on it or reading it", {
    timeout: 20_000,
  }, async () => {
    const cache = fileCache(join(dir, "e"));
    const entry = { url: "u", body: "b", storedAt: 1, maxAge: 1 };
    await cache.set("k", entry);
    const file = join(dir, "e", readdirSync(join(dir, "e"))[0]!);
    const elsewhere = join(dir, "elsewhere.json");
    writeFileSync(elsewhere, JSON.stringify({ key: "k", entry }));
    for (const make of [
      () => spawnSync("mkfifo", [file]),
      () => symlinkSync("/dev/zero", file),
      () => symlinkSync(elsewhere, file),
    ]) {
      rmSync(file);
      make();
      assert.equal(await cache.get("k"), undefined);
    }
  });
  it("creates its directory on the first write, and an entry not yet written is absent", async () => {
    const cache = fileCache(join(dir, "c", "d"));
    assert.equal(await cache.get("k"), undefined);
    await cache.set("k", { url: "u", body: "b", storedAt: 1, maxAge: 1 });
    assert.equal((await cache.get("k"))?.body, "b");
  });
  it("throws the file system's error when it cannot read or write (resolve reports it, once)", async () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "");
    const cache = fileCache(join(file, "cache"));
    await assert.rejects(cache.get("k"), { code: "ENOTDIR" });
    await assert.rejects(cache.set("k", { url: "u", body: "b", storedAt: 1, maxAge: 1 }), { code: "ENOTDIR" });
  });
});

describe("manifest-resolver resolve", () => {
  const dir = mkdtempSync(join(tmpdir(), "um-resolve-cli-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const manifestPath = publish(manifest("urn:cli:ok"), { "cache-control": "public, max-age=60" });
  server.routes.set(umidPath("urn:cli:gone"), answer(410));

  /** `resolve --offline ARGS`, in this process: the servers answering it run here too, and answer while it waits. */
  const cli = (...args: string[]) => runCliInProcess(["resolve", "--offline", ...args], process.cwd());

  it("prints the receipt, indented, and exits 0 when accepted", async () => {
    const result = await cli(server.url, "urn:cli:ok", "--now", NOW);
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.startsWith('{\n  "@type"'), result.stdout);
    const r = valid(JSON.parse(result.stdout) as Receipt);
    assert.deepEqual([r.manifestId, r.outcome, r.processedAt], ["urn:cli:ok", "accepted", "2026-06-01T00:00:00.000Z"]);
    assert.equal(result.stderr, "");
  });
  it("--json: one line; exits 1 for a revoked UMID (410), with its receipt", async () => {
    const result = await cli(server.url, "urn:cli:gone", "--json", "--now", NOW);
    assert.equal(result.status, 1);
    assert.equal(result.stdout.trim().split("\n").length, 1);
    assert.deepEqual([valid(JSON.parse(result.stdout) as Receipt).revocationStatus, result.stderr], ["revoked", ""]);
  });
  it("exits 1 for an expired manifest (--now past expiresAt)", async () => {
    const result = await cli(server.url, "urn:cli:ok", "--json", "--now", "2031-01-01T00:00:00Z");
    assert.equal(result.status, 1);
    assert.equal(valid(JSON.parse(result.stdout) as Receipt).freshnessCheck, "expired");
  });
  it("exits 1 for a UMID that is not resolvable, one line on stderr and nothing on stdout", async () => {
    const result = await cli(server.url, "urn:cli:unknown");
    assert.deepEqual([result.status, result.stdout, result.stderr.split("\n").length], [1, "", 2]);
    assertLineNames(
      result.stderr,
      "manifest-resolver: ",
      '"urn:cli:unknown"',
      `${server.url}/urn%3Acli%3Aunknown`,
      "404",
    );
  });
  it("--http-cache DIR: a second run within max-age makes no request", async () => {
    const cacheDir = join(dir, "cache");
    const before = server.hits(manifestPath);
    for (const now of [NOW, later(30)]) {
      const result = await cli(server.url, "urn:cli:ok", "--http-cache", cacheDir, "--now", now, "--json");
      assert.equal(result.status, 0, result.stderr);
    }
    assert.equal(server.hits(manifestPath), before + 1);
    assert.equal(readdirSync(cacheDir).length, 1);
  });

  describe("status lists, --status-origin, --federate, --federate-discover (issue 27)", () => {
    const LIST_PATH = `${STATUS_LIST_PREFIX}/c11c0000`;
    /** A list served at `at` + LIST_PATH whose entry `index` holds `code`. */
    async function serveList(at: Server, index: number, code: StatusCode) {
      const credential = statusListCredential({
        url: at.url + LIST_PATH,
        issuer: at.url,
        validFrom: "2026-05-01T00:00:00Z",
        ttlMs: 300_000,
        encodedList: await encodeStatusList(statusBitstring([[index, code]])),
      });
      at.routes.set(LIST_PATH, body(credential, {}, "application/vc+ld+json"));
    }
    const receipt = (result: { stdout: string }) => valid(JSON.parse(result.stdout) as Receipt);
    const codes = (r: Receipt) => r.warnings.map((w) => w.code);

    it("reads the statusRef's list entry, and --status-origin refuses one elsewhere without asking it", async () => {
      await serveList(server, 2, STATUS_CODES.revoked);
      publish(manifest("urn:cli:list", { statusRef: listStatusRef(server.url + LIST_PATH, 2) }));
      const revoked = await cli(server.url, "urn:cli:list", "--json", "--now", NOW);
      assert.equal(revoked.status, 1, revoked.stderr);
      const r = receipt(revoked);
      assert.deepEqual([r.revocationStatus, r.revocationResolvedBy], ["revoked", server.url + LIST_PATH]);
      const hits = server.hits(LIST_PATH);
      const refused = await cli(
        server.url,
        "urn:cli:list",
        "--json",
        "--now",
        NOW,
        "--status-origin",
        "https://a.example",
      );
      assert.equal(refused.status, 0, refused.stderr);
      assert.deepEqual(
        [receipt(refused).revocationStatus, receipt(refused).revocationReason],
        ["unchecked", "um:reason:status:origin-not-allowed"],
      );
      assert.equal(server.hits(LIST_PATH), hits, "not asked");
      const allowed = await cli(server.url, "urn:cli:list", "--json", "--now", NOW, "--status-origin", server.url);
      assert.equal(receipt(allowed).revocationStatus, "revoked");
    });

    it("--federate: a peer that revoked wins, with federation-inconsistent; --federate-discover finds it", async () => {
      const peer = await startServer();
      after(() => peer.close());
      await serveList(server, 3, STATUS_CODES.active);
      await serveList(peer, 3, STATUS_CODES.revoked);
      publish(manifest("urn:cli:fed", { statusRef: listStatusRef(server.url + LIST_PATH, 3) }));
      assert.equal((await cli(server.url, "urn:cli:fed", "--json", "--now", NOW)).status, 0);
      const federated = await cli(server.url, "urn:cli:fed", "--json", "--now", NOW, "--federate", peer.url);
      assert.equal(federated.status, 1, federated.stderr);
      assert.deepEqual(codes(receipt(federated)), [
        "um:reason:status:revoked",
        "um:reason:status:federation-inconsistent",
      ]);
      server.routes.set(
        RESOLVERS_PATH,
        body(
          { resolver: "did:web:a.example", peers: [{ url: peer.url, did: "did:web:b.example" }] },
          {},
          "application/json",
        ),
      );
      const discovered = await cli(server.url, "urn:cli:fed", "--json", "--now", NOW, "--federate-discover");
      assert.equal(discovered.status, 1, discovered.stderr);
      assert.equal(receipt(discovered).revocationStatus, "revoked");
    });

    it("a --status-origin that is not an origin, a --federate URL the client may not ask: usage errors", async () => {
      assertUsageError(
        await cli(server.url, "urn:cli:fed", "--status-origin", "https://a.example/x"),
        "--status-origin",
      );
      assertUsageError(await cli(server.url, "urn:cli:fed", "--federate", "http://peer.example"), "--federate");
    });
  });

  describe("--http-cache DIR that cannot be read or written: one warning line, the receipt, exit by the verdict", () => {
    /** The run's receipt and its one warning, never a stack trace. */
    async function warnedOnce(
      cacheDir: string,
      umid = "urn:cli:ok",
      status = 0,
    ): Promise<{ receipt: Receipt; warning: string }> {
      const result = await cli(server.url, umid, "--http-cache", cacheDir, "--now", NOW, "--json");
      assert.equal(result.status, status, result.stderr);
      const lines = result.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, result.stderr);
      assert.match(
        lines[0]!,
        new RegExp(
          `^manifest-resolver: warning: --http-cache ` +
            `${cacheDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the cache (was not ` +
            `saved|could not be read): `,
        ),
      );
      return { receipt: valid(JSON.parse(result.stdout) as Receipt), warning: lines[0]! };
    }
    it("a path that is a file (ENOTDIR), or under one", async () => {
      const file = join(dir, "cache-is-a-file");
      writeFileSync(file, "");
      assert.equal((await warnedOnce(file)).receipt.outcome, "accepted");
      assert.match((await warnedOnce(join(file, "cache"))).warning, /ENOTDIR/);
      assert.equal((await warnedOnce(file, "urn:cli:gone", 1)).receipt.revocationStatus, "revoked");
    });
    it("a folder without write permission (EACCES)", async (context) => {
      if (process.getuid?.() === 0)
        return context.skip("root writes to a folder without write permission: the read-only tmpfs case covers it");
      const locked = join(dir, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o555);
      try {
        assert.match((await warnedOnce(locked)).warning, /was not saved: EACCES/);
      } finally {
        chmodSync(locked, 0o755);
      }
    });
    it("a read-only disk (EROFS)", async (context) => {
      await withTmpfs(context, dir, "1m", async (disk) => {
        mkdirSync(join(disk.dir, "cache"));
        disk.readOnly();
        assert.match((await warnedOnce(join(disk.dir, "cache"))).warning, /was not saved: EROFS/);
        // Node's recursive mkdir says ENOENT, not EROFS, for a folder it cannot make there.
        assert.match((await warnedOnce(join(disk.dir, "never-made"))).warning, /was not saved: (EROFS|ENOENT): /);
      });
    });
    it("a full disk (ENOSPC)", async (context) => {
      await withTmpfs(context, dir, "64k", async (disk) => {
        mkdirSync(join(disk.dir, "cache"));
        disk.fill();
        const { receipt, warning } = await warnedOnce(join(disk.dir, "cache"));
        assert.deepEqual([receipt.outcome, receipt.manifestId], ["accepted", "urn:cli:ok"]);
        assert.match(warning, /was not saved: ENOSPC/);
      });
    });
  });

  it("--http-cache DIR remembers a revocation between runs: a later active answer is refused, with its rule", async () => {
    const umid = "urn:cli:revoked-once";
    const path = statusPathFor();
    server.routes.set(path, statusBody(statusDocument(umid, "revoked", "2026-05-10T00:00:00Z")));
    publish(manifest(umid, { statusRef: `${server.url}${path}` }), { "cache-control": "no-cache" });
    const cacheDir = join(dir, "memory");
    const first = await cli(server.url, umid, "--http-cache", cacheDir, "--now", NOW, "--json");
    assert.deepEqual([first.status, valid(JSON.parse(first.stdout) as Receipt).revocationStatus], [1, "revoked"]);
    server.routes.set(path, statusBody(statusDocument(umid, "active", "2026-05-20T00:00:00Z")));
    const second = await cli(server.url, umid, "--http-cache", cacheDir, "--now", later(3600), "--json");
    const r = valid(JSON.parse(second.stdout) as Receipt);
    assert.deepEqual(
      [second.status, r.outcome, r.revocationStatus, r.warnings.map((w) => w.rule), second.stderr],
      [1, "rejected", "revoked", ["status/revocation-contradicted"], ""],
    );
    // Without the cache, nothing is remembered: the answer is believed.
    const forgetful = await cli(server.url, umid, "--now", later(3600), "--json");
    assert.deepEqual([forgetful.status, JSON.parse(forgetful.stdout).revocationStatus], [0, "active"]);
  });

  describe("--keys FILE: keys pinned by keyRef, as in _keys.json", () => {
    const keysFile = (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    };
    const pinned = keysFile("keys.json", pinning(key));
    it("a manifest signed with the key pinned for its keyRef: accepted, keyRefResolution resolved", async () => {
      const result = await cli(server.url, "urn:cli:ok", "--keys", pinned, "--now", NOW, "--json");
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(
        [JSON.parse(result.stdout).outcome, JSON.parse(result.stdout).keyRefResolution],
        ["accepted", "resolved"],
      );
    });
    for (const [name, keys, rule] of [
      ["another key pinned for the keyRef", pinning(newKey()), "signature/key-mismatch"],
      [
        "the keyRef not pinned",
        { "did:web:other.example#key-1": pinning(key)[FIXTURE_KEY_REF] },
        "signature/unpinned-key",
      ],
    ] as const) {
      it(`${name}: rejected (exit 1), ${rule}, naming the keyRef`, async () => {
        const result = await cli(
          server.url,
          "urn:cli:ok",
          "--keys",
          keysFile(`${rule.replace("/", "-")}.json`, keys),
          "--now",
          NOW,
          "--json",
        );
        assert.equal(result.status, 1, result.stderr);
        const r = valid(JSON.parse(result.stdout) as Receipt);
        assert.deepEqual([r.outcome, r.signatureCheck, r.warnings.map((w) => w.rule)], ["rejected", "invalid", [rule]]);
        assert.ok(r.warnings[0]!.message.includes(JSON.stringify(FIXTURE_KEY_REF)), r.warnings[0]!.message);
      });
    }
    for (const [name, content, problem] of [
      ["not JSON", '{"did:web:fixture.example#key-1": ', /json\//],
      ["not an object of strings", "[1]", /schema\//],
      [
        "a key of the right form that is not Ed25519's encoding",
        { [FIXTURE_KEY_REF]: `MCowBQYDK2VwAyEA${"A".repeat(42)}B=` },
        /keys\/not-ed25519/,
      ],
      [
        "a small-order key",
        {
          [FIXTURE_KEY_REF]: Buffer.concat([
            Buffer.from("302a300506032b6570032100", "hex"),
            Buffer.from([1]),
            Buffer.alloc(31),
          ]).toString("base64"),
        },
        /keys\/weak-key/,
      ],
    ] as const) {
      it(`a keys file with ${name}: usage error (exit 2), one line naming the file and the problem`, async () => {
        const file = keysFile(`bad-${name.replace(/\W+/g, "-")}.json`, content);
        const result = await cli(server.url, "urn:cli:ok", "--keys", file, "--now", NOW);
        assert.equal(result.status, 2, result.stderr);
        const [line, ...rest] = result.stderr.trimEnd().split("\n");
        // Named as diagnostics name files: relative to the working directory, which the command shares.
        assert.ok(line!.startsWith(`manifest-resolver: --keys: ${relative(process.cwd(), file)}:`), line);
        assert.match(line!, problem);
        assert.deepEqual([rest, result.stdout], [["Run 'manifest-resolver resolve --help' for usage."], ""]);
      });
    }
    it("a keys file that is not there: usage error (exit 2)", async () => {
      const file = join(dir, "absent-keys.json");
      const result = await cli(server.url, "urn:cli:ok", "--keys", file);
      assertUsageError(result, "manifest-resolver: --keys: ");
      const [fault] = printedProblems(result.stderr.replace(/^manifest-resolver: --keys: /, ""));
      assert.deepEqual([fault?.file, fault?.rule], [relative(process.cwd(), file), "file/unreadable"]);
    });
  });

  it("a manifest served as text/html: a resolve/media-type warning naming it, exit by the verdict", async () => {
    const text = JSON.stringify(manifest("urn:cli:html"));
    server.routes.set(umidPath("urn:cli:html"), (_req, res) =>
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(text),
    );
    const result = await cli(server.url, "urn:cli:html", "--now", NOW, "--json");
    assert.equal(result.status, 0, result.stderr);
    const r = valid(JSON.parse(result.stdout) as Receipt);
    assert.deepEqual(
      [r.outcome, r.warnings.map((w) => [w.code, w.rule])],
      ["accepted-with-warnings", [["um:reason:arrive:media-type", "resolve/media-type"]]],
    );
    assert.match(r.warnings[0]!.message, /"text\/html; charset=utf-8"/);
  });
  // Each names what is wrong: the argument and its value, the option, the member, the depth allowed.
  for (const [what, args, named] of [
    [
      "a BASE_URL not https:",
      ["http://resolver.example", "urn:x"],
      ["BASE_URL", '"http://resolver.example"', "https:"],
    ],
    ["a BASE_URL not a URL", ["not a url", "urn:x"], ["BASE_URL", '"not a url"']],
    ["no UMID", ["https://r.example"], ["BASE_URL", "UMID", " 1 "]],
    ["--context not JSON", ["https://r.example", "urn:x", "--context", "{now"], ["--context"]],
    [
      "--context with an unknown member",
      ["https://r.example", "urn:x", "--context", '{"maxSupportedTier":1}'],
      ["--context", '"maxSupportedTier"'],
    ],
    [
      "--context naming a member of Object.prototype",
      ["https://r.example", "urn:x", "--context", '{"__proto__":1}'],
      ["manifest-resolver: --context", '"__proto__"'],
    ],
    [
      "--context nested too deep",
      ["https://r.example", "urn:x", "--context", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
      ["manifest-resolver: --context", " 10 "],
    ],
    ["--now not a date-time", ["https://r.example", "urn:x", "--now", "yesterday"], ["--now", "'yesterday'"]],
  ] as const) {
    it(`usage error (exit 2): ${what}`, async () => {
      const result = await cli(...args);
      assertUsageError(result, ...named);
      assert.equal(result.stdout, "");
    });
  }
});

describe(
  "resolve(): a status once seen (EXT-OPT O2.3: revoked is permanent; a suspension " + "ends only by a newer cursor)",
  () => {
    /**
     * A manifest for `umid` whose status endpoint answers what `answer` last set, resolved through one cache, each time
     * past nextCheck so the endpoint is asked again.
     */
    function scenario(umid: string, signatureExtra: Record<string, string> = {}) {
      const path = statusPathFor();
      publish(manifest(umid, { statusRef: `${server.url}${path}`, ...signatureExtra }), {
        "cache-control": "no-cache",
      });
      const cache = memoryCache();
      let step = 0;
      return {
        cache,
        answer: (route: Route) => server.routes.set(path, route),
        says: (status: StatusDocument["status"], updatedAt: string) =>
          server.routes.set(path, statusBody(statusDocument(umid, status, updatedAt))),
        // 11 minutes apart: past the default nextCheck (PT10M) of every answer before.
        resolve: async () => receiptOf(await resolve(server.url, umid, at(later(660 * step++), { cache }))),
      };
    }
    const verdict = (r: Receipt) => [r.outcome, r.revocationStatus, r.revocationReason, r.warnings.map((w) => w.rule)];

    it(
      "revoked stays revoked: a later active or suspended answer, with a newer cursor " +
        "or an older one, is a contradiction, recorded",
      async () => {
        const s = scenario("urn:seen:revoked");
        s.says("revoked", "2026-05-10T00:00:00Z");
        assert.deepEqual(verdict(await s.resolve()), ["rejected", "revoked", "um:reason:status:revoked", [undefined]]);
        for (const [status, updatedAt] of [
          ["active", "2026-05-20T00:00:00Z"],
          ["active", "2026-05-01T00:00:00Z"],
          ["suspended", "2026-05-21T00:00:00Z"],
        ] as const) {
          s.says(status, updatedAt);
          const r = await s.resolve();
          assert.deepEqual(
            verdict(r),
            ["rejected", "revoked", "um:reason:status:revoked", ["status/revocation-contradicted"]],
            `${status} ${updatedAt}`,
          );
          assert.match(r.warnings[0]!.message, new RegExp(`\\b${status}\\b`));
        }
      },
    );
    it(
      "a UMID the resolver answered 410 for stays revoked when it serves the manifest " +
        "again, with a status or without one",
      async () => {
        const umid = "urn:seen:gone";
        const cache = memoryCache();
        server.routes.set(umidPath(umid), answer(410));
        assert.equal(receiptOf(await resolve(server.url, umid, at(NOW, { cache }))).revocationStatus, "revoked");
        const path = statusPathFor();
        server.routes.set(path, statusBody(statusDocument(umid, "active", "2026-05-20T00:00:00Z")));
        publish(manifest(umid, { statusRef: `${server.url}${path}` }), { "cache-control": "no-cache" });
        assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(later(1), { cache })))), [
          "rejected",
          "revoked",
          "um:reason:status:revoked",
          ["status/revocation-contradicted"],
        ]);
        publish(manifest(umid), { "cache-control": "no-cache" });
        assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(later(2), { cache })))), [
          "rejected",
          "revoked",
          "um:reason:status:revoked",
          ["status/revocation-contradicted"],
        ]);
      },
    );
    it(
      "a suspension ends only by an answer whose cursor is newer: an older or equal " +
        "one is a rollback, refused with a warning",
      async () => {
        const s = scenario("urn:seen:suspended");
        s.says("suspended", "2026-05-10T00:00:00Z");
        assert.deepEqual(verdict(await s.resolve()), [
          "accepted-with-warnings",
          "suspended",
          "um:reason:status:suspended",
          [undefined],
        ]);
        for (const updatedAt of ["2026-05-01T00:00:00Z", "2026-05-10T00:00:00Z"]) {
          s.says("active", updatedAt);
          const r = await s.resolve();
          assert.deepEqual(
            verdict(r),
            ["accepted-with-warnings", "suspended", "um:reason:status:suspended", ["status/cursor-rollback"]],
            updatedAt,
          );
          assert.match(
            r.warnings[0]!.message,
            new RegExp(`${statusCursor(updatedAt)}.*${statusCursor("2026-05-10T00:00:00Z")}`),
          );
        }
        s.says("active", "2026-05-20T00:00:00Z");
        assert.deepEqual(verdict(await s.resolve()), ["accepted", "active", undefined, []]);
        // Lifted: an active answer older than the one that lifted it loosens nothing, and is used.
        s.says("active", "2026-05-15T00:00:00Z");
        assert.deepEqual(verdict(await s.resolve()), ["accepted", "active", undefined, []]);
      },
    );
    it("a later suspension, or a later revocation, is believed whatever its cursor: it loosens nothing", async () => {
      const s = scenario("urn:seen:tightened");
      s.says("active", "2026-05-20T00:00:00Z");
      assert.equal((await s.resolve()).revocationStatus, "active");
      s.says("suspended", "2026-05-10T00:00:00Z");
      assert.deepEqual(verdict(await s.resolve()), [
        "accepted-with-warnings",
        "suspended",
        "um:reason:status:suspended",
        [undefined],
      ]);
      s.says("revoked", "2026-05-01T00:00:00Z");
      assert.deepEqual(verdict(await s.resolve()), ["rejected", "revoked", "um:reason:status:revoked", [undefined]]);
    });
    it(
      "an endpoint's own cursors are opaque: its statuses are ordered by updatedAt, so " +
        "a suspension ends, and a rollback is still one",
      async () => {
        const s = scenario("urn:seen:opaque");
        const says = (status: StatusDocument["status"], updatedAt: string, cursor: string) =>
          s.answer(statusBody({ ...statusDocument("urn:seen:opaque", status, updatedAt), cursor }));
        says("suspended", "2026-05-10T00:00:00Z", "v9");
        assert.equal((await s.resolve()).revocationStatus, "suspended");
        says("active", "2026-05-01T00:00:00Z", "v8");
        assert.deepEqual(verdict(await s.resolve()), [
          "accepted-with-warnings",
          "suspended",
          "um:reason:status:suspended",
          ["status/cursor-rollback"],
        ]);
        says("active", "2026-05-20T00:00:00Z", "v10");
        assert.deepEqual(verdict(await s.resolve()), ["accepted", "active", undefined, []]);
      },
    );
    it("what one resolver said binds that resolver only: a 410 from another does not revoke the UMID here", async () => {
      const umid = "urn:seen:elsewhere";
      const cache = memoryCache();
      server.routes.set(`/other${umidPath(umid)}`, answer(410));
      assert.equal(
        receiptOf(await resolve(`${server.url}/other`, umid, at(NOW, { cache }))).revocationStatus,
        "revoked",
      );
      publish(manifest(umid));
      assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(later(1), { cache })))), [
        "accepted",
        "unchecked",
        "um:reason:status:not-listed",
        [],
      ]);
      assert.equal(
        receiptOf(await resolve(`${server.url}/other`, umid, at(later(2), { cache }))).revocationStatus,
        "revoked",
      );
    });
    it(
      "an endpoint that cannot be asked ends nothing: the suspension or revocation " +
        "seen stands, and it is no contradiction",
      async () => {
        const suspended = scenario("urn:seen:suspended-then-down");
        suspended.says("suspended", "2026-05-10T00:00:00Z");
        await suspended.resolve();
        suspended.answer(answer(503));
        const r = await suspended.resolve();
        assert.deepEqual(verdict(r), [
          "accepted-with-warnings",
          "suspended",
          "um:reason:status:suspended",
          [undefined],
        ]);
        assert.match(r.warnings[0]!.message, /503/);
        const revoked = scenario("urn:seen:revoked-then-down");
        revoked.says("revoked", "2026-05-10T00:00:00Z");
        await revoked.resolve();
        revoked.answer(answer(503));
        assert.deepEqual(verdict(await revoked.resolve()), [
          "rejected",
          "revoked",
          "um:reason:status:revoked",
          [undefined],
        ]);
      },
    );
    it(
      "a UMID seen revoked gets its revoked receipt even when the resolver now answers " +
        "no manifest: 404, 500, another @id",
      async () => {
        const umid = "urn:seen:then-lost";
        const cache = memoryCache();
        server.routes.set(umidPath(umid), answer(410));
        await resolve(server.url, umid, at(NOW, { cache }));
        // The warning names what came instead: the status, or the other @id.
        for (const [route, said] of [
          [answer(404), "404"],
          [answer(500), "500"],
          [body(manifest("urn:seen:someone-else")), '"urn:seen:someone-else"'],
        ] as const) {
          server.routes.set(umidPath(umid), route);
          const r = receiptOf(await resolve(server.url, umid, at(later(1), { cache })));
          assert.deepEqual(
            [r.manifestId, r.outcome, r.revocationStatus, r.revocationReason],
            [umid, "rejected", "revoked", "um:reason:status:revoked"],
          );
          assertLineNames(r.warnings[0]!.message, said);
        }
        // Never seen revoked: not resolvable, as ever.
        const never = await resolve(server.url, "urn:seen:never", at(NOW, { cache }));
        assert.deepEqual([Object.keys(never), (never as { status: number }).status], [["reason", "status"], 404]);
        assertLineNames(reasonOf(never), '"urn:seen:never"');
      },
    );
    it("remembers only a status it believed: one from a manifest whose signature fails is nobody's", async () => {
      const umid = "urn:seen:forged";
      const path = statusPathFor();
      server.routes.set(path, statusBody(statusDocument(umid, "revoked", "2026-05-10T00:00:00Z")));
      const good = manifest(umid, { statusRef: `${server.url}${path}` });
      server.routes.set(
        umidPath(umid),
        body({ ...good, subject: "did:web:mallory.example" }, { "cache-control": "no-cache" }),
      );
      const cache = memoryCache();
      assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(NOW, { cache })))), [
        "rejected",
        "unchecked",
        undefined,
        ["signature/invalid"],
      ]);
      server.routes.set(path, statusBody(statusDocument(umid, "active", "2026-05-20T00:00:00Z")));
      publish(good, { "cache-control": "no-cache" });
      // Past the revoked answer's nextCheck, so the endpoint is asked again.
      assert.deepEqual(verdict(receiptOf(await resolve(server.url, umid, at(later(660), { cache })))), [
        "accepted",
        "active",
        undefined,
        [],
      ]);
    });
  },
);

describe("resolve(): a cache store that fails costs time, never a verdict", () => {
  const broken = (error: NodeJS.ErrnoException, fails: "get" | "set" | "both"): HttpCache => {
    const store = memoryCache();
    return {
      get: fails === "set" ? store.get : async () => Promise.reject(error),
      set: fails === "get" ? store.set : async () => Promise.reject(error),
    };
  };
  const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  it(
    "a store whose reads or writes throw: the receipt as without a cache, and the " + "first failure reported",
    async () => {
      const statusPath = statusPathFor();
      server.routes.set(statusPath, statusBody(statusDocument("urn:cf:store", "suspended")));
      publish(manifest("urn:cf:store", { statusRef: `${server.url}${statusPath}` }), {
        "cache-control": "public, max-age=60",
      });
      for (const fails of ["get", "set", "both"] as const) {
        const result = await resolve(server.url, "urn:cf:store", at(NOW, { cache: broken(enospc, fails) }));
        assert.deepEqual(
          [receiptOf(result).outcome, receiptOf(result).revocationStatus],
          ["accepted-with-warnings", "suspended"],
          fails,
        );
        assert.match(
          (result as { cacheFailure?: string }).cacheFailure ?? "",
          fails === "set"
            ? /^the cache was not saved: ENOSPC: no space left on device/
            : /^the cache could not be read: ENOSPC/,
          fails,
        );
      }
    },
  );
  it("and for a UMID that is revoked (410) or not resolvable (404) alike", async () => {
    server.routes.set(umidPath("urn:cf:gone"), answer(410));
    // A 410 writes nothing to the cache: the revocation goes to the memory, apart.
    const gone = await resolve(server.url, "urn:cf:gone", at(NOW, { cache: broken(enospc, "set") }));
    assert.deepEqual(
      [receiptOf(gone).revocationStatus, (gone as { cacheFailure?: string }).cacheFailure],
      ["revoked", undefined],
    );
    const unknown = await resolve(server.url, "urn:cf:unknown", at(NOW, { cache: broken(enospc, "both") }));
    assert.deepEqual(
      [Object.keys(unknown), (unknown as { status: number }).status, unknown.cacheFailure],
      [
        ["reason", "status", "cacheFailure"],
        404,
        "the cache could not be read: ENOSPC: no space left on device, write",
      ],
    );
    assertLineNames(reasonOf(unknown), '"urn:cf:unknown"');
  });
});

describe("resolve(): a memory that fails, or is full, is reported, the verdict as without it", () => {
  const enospc = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  const broken = (fails: "recall" | "keep"): TrustMemory => {
    const memory = trustMemory();
    return {
      ...memory,
      recall: fails === "keep" ? memory.recall : async () => Promise.reject(enospc),
      keep: fails === "recall" ? memory.keep : async () => Promise.reject(enospc),
    };
  };
  it("a memory whose reads or writes throw: the revoked receipt, and the first failure in memoryFailure", async () => {
    server.routes.set(umidPath("urn:mf:gone"), answer(410));
    for (const [fails, said] of [
      ["recall", "the memory could not be read: ENOSPC"],
      ["keep", "the memory was not saved: ENOSPC"],
    ] as const) {
      const gone = await resolve(server.url, "urn:mf:gone", at(NOW, { memory: broken(fails) }));
      assert.equal(receiptOf(gone).revocationStatus, "revoked");
      assert.ok((gone as { memoryFailure?: string }).memoryFailure?.startsWith(said), fails);
    }
  });
  it("a full memory: the revocation seen now is still the receipt's, and not remembered, which is said", async () => {
    const memory = trustMemory({ umids: 0, logs: 0 });
    server.routes.set(umidPath("urn:mf:full"), answer(410));
    const gone = await resolve(server.url, "urn:mf:full", at(NOW, { memory }));
    assert.equal(receiptOf(gone).revocationStatus, "revoked");
    assert.match((gone as { memoryFailure?: string }).memoryFailure ?? "", /^the memory is full .*urn%3Amf%3Afull/);
  });
});

describe("resolve(): the manifest's media type", () => {
  const served = (umid: string, contentType: string | undefined, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(manifest(umid));
    server.routes.set(umidPath(umid), (_req, res) =>
      res.writeHead(200, { ...(contentType !== undefined && { "content-type": contentType }), ...headers }).end(text),
    );
  };
  const mediaWarnings = (r: Receipt) => r.warnings.filter((w) => w.rule === "resolve/media-type");

  for (const type of [
    "application/ld+json",
    "application/json; charset=utf-8",
    "application/vnd.example+json",
    "Application/LD+JSON;profile=x",
  ]) {
    it(`${type}: a JSON media type, no warning`, async () => {
      const umid = `urn:mt:${type}`;
      served(umid, type);
      const r = receiptOf(await resolve(server.url, umid, at(NOW)));
      assert.deepEqual([r.outcome, r.warnings], ["accepted", []]);
    });
  }
  for (const type of [
    "text/html",
    "text/plain; charset=utf-8",
    "application/jsonp",
    "application/json-seq",
    undefined,
  ]) {
    it(`${type ?? "no Content-Type"}: a warning naming what came, accepted with warnings`, async () => {
      const umid = `urn:mt:bad:${type ?? "none"}`;
      served(umid, type);
      const r = receiptOf(await resolve(server.url, umid, at(NOW)));
      assert.equal(r.outcome, "accepted-with-warnings");
      assert.deepEqual(
        mediaWarnings(r).map((w) => w.code),
        ["um:reason:arrive:media-type"],
      );
      // The media type that came, quoted; or the header that did not.
      assertLineNames(mediaWarnings(r)[0]!.message, type === undefined ? "Content-Type" : JSON.stringify(type));
    });
  }
  it("the same warning for a manifest from the cache, and for a body too large to read", async () => {
    served("urn:mt:cached", "text/html", { "cache-control": "public, max-age=60" });
    const cache = memoryCache();
    await resolve(server.url, "urn:mt:cached", at(NOW, { cache }));
    assert.equal(server.hits(umidPath("urn:mt:cached")), 1);
    const cached = receiptOf(await resolve(server.url, "urn:mt:cached", at(later(1), { cache })));
    assert.equal(server.hits(umidPath("urn:mt:cached")), 1, "served from the cache");
    assert.equal(mediaWarnings(cached).length, 1);
    server.routes.set(umidPath("urn:mt:big"), (_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("x".repeat(5000)),
    );
    const big = receiptOf(await resolve(server.url, "urn:mt:big", at(NOW, { limits: { maxManifestBytes: 1000 } })));
    assert.deepEqual(
      big.warnings.map((w) => w.code),
      ["um:reason:arrive:media-type", "um:reason:arrive:too-large"],
    );
  });
  it("evaluate() takes the Content-Type too, for a caller that fetched the manifest itself", async () => {
    const text = JSON.stringify(manifest("urn:mt:evaluate"));
    assert.deepEqual(
      mediaWarnings(valid(await offlineEvaluate(text, { now: NOW }, { contentType: "text/html; charset=utf-8" })))
        .length,
      1,
    );
    assert.deepEqual(
      valid(await offlineEvaluate(text, { now: NOW }, { contentType: "application/ld+json" })).warnings,
      [],
    );
    assert.deepEqual(
      valid(await offlineEvaluate(text, { now: NOW })).warnings,
      [],
      "not given: not checked (a file has no media type)",
    );
  });
});

describe("the statuses a client remembers, when two resolutions of one UMID overlap", () => {
  const resolveUrl = "https://r.example/urn:overlap";
  const recorded = async (stored: SeenStatus, later: SeenStatus) => {
    const memory = trustMemory();
    await rememberStatus(memory, resolveUrl, stored, "https://r.example/s", 0);
    // A resolution that began before `stored` was recorded, and ends after.
    await rememberStatus(memory, resolveUrl, later, "https://r.example/s", 1);
    return recallStatus(memory, resolveUrl);
  };
  it("a revocation recorded meanwhile stays: the later write of an active status is not kept", async () => {
    assert.deepEqual(
      await recorded(
        { status: "revoked", cursor: "0000000000000002" },
        { status: "active", cursor: "0000000000000003" },
      ),
      { status: "revoked", cursor: "0000000000000002" },
    );
  });
  it(
    "a newer suspension recorded meanwhile stays: an active status with an older " +
      "cursor is not kept; a newer one is",
    async () => {
      assert.deepEqual(
        await recorded(
          { status: "suspended", cursor: "0000000000000005" },
          { status: "active", cursor: "0000000000000003" },
        ),
        { status: "suspended", cursor: "0000000000000005" },
      );
      // The suspension ended: nothing is remembered, as of a UMID never seen.
      assert.equal(
        await recorded(
          { status: "suspended", cursor: "0000000000000005" },
          { status: "active", cursor: "0000000000000007" },
        ),
        undefined,
      );
    },
  );
});
