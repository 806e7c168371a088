/**
 * A black-box check of a running resolver, local or deployed, against the contract:
 * what any conforming resolver must answer, and, for given UMIDs, a coherent answer for
 * each (200 with a correct ETag and a working 304, or 307, or 410), and a status document
 * that agrees with it (EXT-OPT O2: 200 is active or suspended, 410 is revoked, and a 307
 * has no status here: 404), also with a correct ETag and a working 304.
 */
import { randomUUID } from "node:crypto";
import { bodyEtag } from "./body-etag.ts";
import { CACHE_NONE, CONTRACT, MANIFEST_CONTENT_TYPE } from "../edge/responses.ts";
import { CACHE_RESOLVED, JSON_CONTENT_TYPE } from "../core/served-kinds.ts";
import { quoted } from "../core/excerpt.ts";
import { readStatusDocument } from "../core/status/status-document.ts";
import { statusPath, STATUS_PREFIX, umidPath } from "../core/umid-path.ts";
import { redirectLocationProblem } from "../core/validate/redirect-location.ts";

export interface ProbeResult {
  check: string;
  /** What was found, when it passed. */
  detail?: string;
  /** Undefined when the check passed; what was wrong otherwise. */
  failure?: string;
  /** The request itself failed (nothing answers, or the connection broke): later checks would only repeat it. */
  unreachable?: true;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a check returns a note, or nothing
type Check = (check: string, body: () => Promise<string | void>) => Promise<ProbeResult>;

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

const EXPOSED = ["ETag", "Cache-Control", "Content-Type", "Location", "X-UM-Resolver-Contract"];

/** Thrown inside a check to fail it with a message. */
class Mismatch extends Error {}

/** A request that got no answer (or lost it midway): the resolver cannot be reached, and later checks would repeat it. */
class Unreachable extends Error {}

/** Why a request failed, in a few words: the system's code (ECONNREFUSED) when there is one. */
function requestFailure(error: unknown): string {
  const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
  if ((error as Error).name === "TimeoutError") return "no answer in 15 s";
  if (cause?.code === "ECONNREFUSED")
    return "connection refused (ECONNREFUSED): is the resolver running, on this port?";
  if (cause?.code === "ENOTFOUND") return "no such host (ENOTFOUND)";
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

function expectHeader(answer: Answer, name: string, expected: string): void {
  const actual = answer.headers.get(name);
  expect(actual === expected, `${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function expectJson(answer: Answer, status: number, body: unknown, cacheControl = CACHE_NONE): void {
  expect(answer.status === status, `expected ${status}, got ${answer.status}`);
  const text = new TextDecoder().decode(answer.body);
  expect(text === JSON.stringify(body), `body: expected ${JSON.stringify(body)}, got ${quoted(text)}`);
  expectHeader(answer, "Content-Type", JSON_CONTENT_TYPE);
  expectHeader(answer, "Cache-Control", cacheControl);
}

/** What every answer carries: the contract header and CORS for a page on any origin. */
function expectCommon(answer: Answer): void {
  expectHeader(answer, "X-UM-Resolver-Contract", CONTRACT);
  expectHeader(answer, "Access-Control-Allow-Origin", "*");
  const exposed = (answer.headers.get("Access-Control-Expose-Headers") ?? "").toLowerCase().split(/\s*,\s*/);
  const missing = EXPOSED.filter((name) => !exposed.includes(name.toLowerCase()));
  expect(missing.length === 0, `Access-Control-Expose-Headers lacks ${missing.join(", ")}`);
}

export async function* probe(baseUrl: string, umids: string[]): AsyncGenerator<ProbeResult> {
  const base = baseUrl.replace(/\/+$/, "");
  const ask = async (method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    try {
      const response = await fetch(base + path, {
        method,
        headers,
        redirect: "manual",
        signal: AbortSignal.timeout(15_000),
      });
      return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
    } catch (error) {
      throw new Unreachable(requestFailure(error));
    }
  };
  const run: Check = async (check, body) => {
    try {
      const detail = await body();
      return detail === undefined ? { check } : { check, detail };
    } catch (error) {
      if (error instanceof Mismatch) return { check, failure: error.message };
      if (error instanceof Unreachable)
        return { check, failure: `cannot reach ${base}: ${error.message}`, unreachable: true };
      // The resolver answered, with a body this check cannot read (not JSON, or not of the shape it needs).
      return { check, failure: `the answer cannot be read: ${(error as Error).message}` };
    }
  };

  yield await run("GET /health", async () => {
    const answer = await ask("GET", "/health");
    expectJson(answer, 200, { status: "ok", contract: CONTRACT });
    expectCommon(answer);
  });
  yield await run("GET /.well-known/manifest-resolver.json", async () => {
    const answer = await ask("GET", "/.well-known/manifest-resolver.json");
    expect(answer.status === 200, `expected 200, got ${answer.status}`);
    expectHeader(answer, "Cache-Control", CACHE_NONE);
    expectCommon(answer);
    const d = JSON.parse(new TextDecoder().decode(answer.body));
    expect(d.contract === CONTRACT, `contract: ${JSON.stringify(d.contract)}`);
    expect(typeof d.resolver === "string", "resolver is not a string");
    expect(
      Array.isArray(d.umidPathRule) && d.umidPathRule.every((r: unknown) => typeof r === "string"),
      "umidPathRule is not an array of strings",
    );
    expect(
      d.kv?.keyPattern === "um:{UMID}" && typeof d.kv?.binding === "string",
      'kv is not {binding, keyPattern: "um:{UMID}"}',
    );
    expect(
      d.endpoints?.health === "/health" && d.endpoints?.resolve === "/{UMID_PATH}",
      'endpoints are not {health: "/health", resolve: "/{UMID_PATH}"}',
    );
    expect(
      d.endpoints?.status === `${STATUS_PREFIX}/{UMID_PATH}`,
      `endpoints.status is not "${STATUS_PREFIX}/{UMID_PATH}"`,
    );
  });
  const badPaths: [string, string][] = [
    ["/", "missing UMID"],
    ["/a/b", "unexpected extra path segments"],
    ["/b64u:", "empty UMID"],
    ["/b64u:not*base64", "invalid b64u UMID encoding"],
    ["/%E0%A4%A", "invalid UMID encoding"],
  ];
  for (const [path, message] of badPaths) {
    yield await run(`GET ${path} is 400 ${message}`, async () => {
      const answer = await ask("GET", path);
      expectJson(answer, 400, { error: "bad_request", message });
      expectCommon(answer);
    });
  }
  const unknown = `urn:uuid:${randomUUID()}`;
  yield await run("GET an unknown UMID is 404", async () => {
    const answer = await ask("GET", umidPath(unknown));
    expectJson(answer, 404, { error: "not_found", umid: unknown });
    expectCommon(answer);
  });
  yield await run("POST is 405, with Allow", async () => {
    const answer = await ask("POST", umidPath(unknown));
    expectJson(answer, 405, { error: "method_not_allowed" });
    expectHeader(answer, "Allow", "GET, HEAD, OPTIONS");
    expectCommon(answer);
  });
  yield await run("OPTIONS preflight for If-None-Match is 204", async () => {
    const answer = await ask("OPTIONS", umidPath(unknown), {
      Origin: "https://probe.example",
      "Access-Control-Request-Method": "GET",
      "Access-Control-Request-Headers": "if-none-match",
    });
    expect(answer.status === 204, `expected 204, got ${answer.status}`);
    expectHeader(answer, "Cache-Control", CACHE_NONE);
    expectCommon(answer);
    const allowed = (answer.headers.get("Access-Control-Allow-Headers") ?? "").toLowerCase();
    expect(
      allowed.split(/\s*,\s*/).includes("if-none-match") || allowed === "*",
      `Access-Control-Allow-Headers does not allow If-None-Match: ${JSON.stringify(allowed)}`,
    );
  });

  for (const umid of umids) yield* probeUmid(umid, base, ask, run);
}

/** `base`: the resolver probed, whose clients judge a redirect's target from it. */
async function* probeUmid(
  umid: string,
  base: string,
  ask: (method: string, path: string, headers?: Record<string, string>) => Promise<Answer>,
  run: Check,
): AsyncGenerator<ProbeResult> {
  const path = umidPath(umid);
  let first: Answer | undefined;
  const resolved = await run(`GET ${path}`, async () => {
    first = await ask("GET", path);
    expectCommon(first);
    expect([200, 307, 410].includes(first.status), `expected 200, 307 or 410, got ${first.status}`);
    if (first.status === 410) {
      expectJson(first, 410, { error: "revoked", umid });
      return "410 revoked";
    }
    expectHeader(first, "Cache-Control", CACHE_RESOLVED);
    if (first.status === 307) {
      const location = first.headers.get("Location");
      // Judged as a client asking this resolver judges it: a local or private target only from a resolver on one.
      const problem = location === null ? "is missing" : redirectLocationProblem(location, base);
      expect(problem === undefined, `Location ${problem}: ${quoted(location)}`);
      return `307 to ${location}`;
    }
    expectHeader(first, "Content-Type", MANIFEST_CONTENT_TYPE);
    const etag = bodyEtag(first.body);
    expectHeader(first, "ETag", etag);
    const manifest = JSON.parse(new TextDecoder().decode(first.body));
    expect(manifest?.["@id"] === umid, `the manifest's @id is ${quoted(manifest?.["@id"])}`);
    return `200, ${first.body.length} bytes, ETag ${etag}`;
  });
  yield resolved;
  if (first !== undefined) yield* probeStatus(umid, first.status, ask, run);
  // A 304, HEAD and b64u: path are checked against a 200 that passed, or not at all.
  if (resolved.failure !== undefined || first?.status !== 200) return;
  const etag = first.headers.get("ETag")!;
  yield await run(`GET ${path} with If-None-Match is 304`, async () => {
    const answer = await ask("GET", path, { "If-None-Match": etag });
    expect(answer.status === 304, `expected 304, got ${answer.status}`);
    expectHeader(answer, "ETag", etag);
    expectHeader(answer, "Cache-Control", CACHE_RESOLVED);
    expect(answer.body.length === 0, "a 304 has no body");
    expectCommon(answer);
  });
  yield await run(`HEAD ${path}`, async () => {
    const answer = await ask("HEAD", path);
    expect(answer.status === 200, `expected 200, got ${answer.status}`);
    expectHeader(answer, "ETag", etag);
    expect(answer.body.length === 0, "a HEAD answer has no body");
    expectCommon(answer);
  });
  const b64u = umidPath(umid, "b64u");
  yield await run(`GET ${b64u.length > 60 ? `${b64u.slice(0, 60)}…` : b64u} is the same`, async () => {
    const answer = await ask("GET", b64u);
    expect(answer.status === 200, `expected 200, got ${answer.status}`);
    expectHeader(answer, "ETag", etag);
  });
}

/** The status document of `umid`, against what its resolve path answered (`resolvedStatus`). */
async function* probeStatus(
  umid: string,
  resolvedStatus: number,
  ask: (method: string, path: string, headers?: Record<string, string>) => Promise<Answer>,
  run: Check,
): AsyncGenerator<ProbeResult> {
  const path = statusPath(umid);
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  const expected = resolvedStatus === 200 ? ["active", "suspended"] : resolvedStatus === 410 ? ["revoked"] : [];
  let etag: string | undefined;
  yield await run(`GET ${shown} agrees with ${resolvedStatus}`, async () => {
    const answer = await ask("GET", path);
    expectCommon(answer);
    if (expected.length === 0) {
      expectJson(answer, 404, { error: "not_found", umid });
      return "404: no status here";
    }
    expect(answer.status === 200, `expected 200, got ${answer.status}`);
    expectHeader(answer, "Content-Type", JSON_CONTENT_TYPE);
    expectHeader(answer, "Cache-Control", CACHE_RESOLVED);
    // Read as every relying party reads it (core/status/status-document.ts).
    const document = readStatusDocument(new TextDecoder().decode(answer.body));
    if ("problem" in document) throw new Mismatch(document.problem);
    expect(document.manifestId === umid, `manifestId is ${JSON.stringify(document.manifestId)}`);
    expect(expected.includes(document.status), `status is ${document.status}, but the UMID answered ${resolvedStatus}`);
    expect(
      typeof document.cursor === "string" && typeof document.nextCheck === "string",
      "cursor and nextCheck are missing",
    );
    const digest = bodyEtag(answer.body);
    expectHeader(answer, "ETag", digest);
    etag = digest;
    return `${document.status} since ${document.updatedAt}, cursor ${document.cursor}`;
  });
  if (etag === undefined) return;
  yield await run(`GET ${shown} with If-None-Match is 304`, async () => {
    const answer = await ask("GET", path, { "If-None-Match": etag! });
    expect(answer.status === 304, `expected 304, got ${answer.status}`);
    expectHeader(answer, "ETag", etag!);
    expect(answer.body.length === 0, "a 304 has no body");
  });
}
