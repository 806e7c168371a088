/**
 * The resolver contract as one table of requests and exact expected answers, run against
 * every runtime. Expectations are written from the spec and computed from the fixture's
 * manifests here, not read back from the build output.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { verifyOfflineProof } from "../../core/client/offline-proof.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { keyOnlyPolicy } from "../../core/tlog/log-policy.ts";
import { parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { PROOF_PREFIX, statusPath, STATUS_PREFIX, TLOG_PROOF_RELATION, umidPath } from "../../core/umid-path.ts";
import { resolveKeyRefLocally } from "../../core/did/resolve-key-ref.ts";
import { didKeyOf, rawPublicKey } from "../support/did.ts";
import type { Fixture } from "../support/fixture-content.ts";
import type { RawResponse } from "../support/http.ts";

type HeaderExpectation = string | null | ((value: string | undefined) => boolean);

export interface ContractCase {
  name: string;
  method: string;
  path: string;
  requestHeaders?: Record<string, string>;
  status: number;
  headers: Record<string, HeaderExpectation>;
  /** The exact body, or a check of it (and of the headers that depend on it). */
  body: Buffer | ((body: Buffer, headers: Record<string, string>) => void | Promise<void>);
}

const contains =
  (...names: string[]) =>
  (value: string | undefined) =>
    value !== undefined &&
    names.every((n) =>
      value
        .toLowerCase()
        .split(/\s*,\s*/)
        .includes(n.toLowerCase()),
    );

/** What every response carries, errors included, and what none may carry. */
const EVERY_RESPONSE: Record<string, HeaderExpectation> = {
  "x-um-resolver-contract": "manifest-resolver/v0.1",
  "access-control-allow-origin": "*",
  "access-control-allow-methods": contains("GET", "HEAD", "OPTIONS"),
  "access-control-allow-headers": contains("If-None-Match"),
  "access-control-expose-headers": contains(
    "ETag",
    "Cache-Control",
    "Content-Type",
    "Location",
    "X-UM-Resolver-Contract",
    "Link",
  ),
  "x-content-type-options": "nosniff",
  "set-cookie": null,
  // Nothing of a host's static layer may leak through (see tests/runtimes/netlify-deno.ts).
  "x-static-layer": null,
};

const EMPTY = Buffer.alloc(0);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

export function manifestBody(manifest: Record<string, unknown>): Buffer {
  return Buffer.from(canonicalize(manifest));
}

export function etagOf(body: Buffer): string {
  return `W/"sha256-${createHash("sha256").update(body).digest("base64url")}"`;
}

/**
 * The Link of a manifest answer at `path` (issue 41): its offline proof, at the UMID_PATH as asked, relative to the
 * manifest's URL (a resolver below a base path serves it below its base), with the C2SP relation; none from a
 * resolver that serves no log.
 */
function proofLink(path: string, logged: boolean): string | null {
  if (!logged) return null;
  const pathname = new URL(path, "http://resolver.test").pathname;
  return `<${PROOF_PREFIX.slice(1)}${pathname}>; rel="${TLOG_PROOF_RELATION}"`;
}

function ok(
  name: string,
  path: string,
  manifest: Record<string, unknown>,
  requestHeaders?: Record<string, string>,
  logged = true,
): ContractCase {
  const body = manifestBody(manifest);
  return {
    name,
    method: "GET",
    path,
    ...(requestHeaders && { requestHeaders }),
    status: 200,
    headers: {
      "content-type": "application/ld+json; charset=utf-8",
      "cache-control": "public, max-age=60",
      etag: etagOf(body),
      "content-length": String(body.length),
      link: proofLink(path, logged),
    },
    body,
  };
}

function notModified(
  name: string,
  path: string,
  manifest: Record<string, unknown>,
  ifNoneMatch: string,
  logged = true,
): ContractCase {
  return {
    name,
    method: "GET",
    path,
    requestHeaders: { "If-None-Match": ifNoneMatch },
    status: 304,
    headers: {
      "content-type": "application/ld+json; charset=utf-8",
      "cache-control": "public, max-age=60",
      etag: etagOf(manifestBody(manifest)),
      link: proofLink(path, logged),
    },
    body: EMPTY,
  };
}

function error(
  name: string,
  method: string,
  path: string,
  status: number,
  body: object,
  requestHeaders?: Record<string, string>,
): ContractCase {
  return {
    name,
    method,
    path,
    ...(requestHeaders && { requestHeaders }),
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      etag: null,
      location: null,
      link: null,
    },
    body: json(body),
  };
}

const badRequest = (path: string, message: string) =>
  error(`400 ${message}: ${path}`, "GET", path, 400, { error: "bad_request", message });

export function contractCases(f: Fixture): ContractCase[] {
  const cases: ContractCase[] = [];
  const corrupt = new Set([f.corruptAltered, f.corruptMissing]);
  const healthy = [...f.published].filter(([umid]) => !corrupt.has(umid));

  cases.push({
    name: "health",
    method: "GET",
    path: "/health",
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", etag: null },
    body: json({ status: "ok", contract: "manifest-resolver/v0.1" }),
  });
  cases.push({
    name: "descriptor",
    method: "GET",
    path: "/.well-known/manifest-resolver.json",
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", etag: null },
    body: (body) => {
      const d = JSON.parse(body.toString());
      assert.equal(d.contract, "manifest-resolver/v0.1");
      assert.equal(d.resolver, "manifest-resolver");
      assert.ok(
        Array.isArray(d.umidPathRule) &&
          d.umidPathRule.length > 0 &&
          d.umidPathRule.every((r: unknown) => typeof r === "string"),
      );
      assert.equal(typeof d.kv.binding, "string");
      assert.equal(d.kv.keyPattern, "um:{UMID}");
      assert.equal(d.endpoints.health, "/health");
      assert.equal(d.endpoints.resolve, "/{UMID_PATH}");
      assert.equal(d.endpoints.status, "/.well-known/manifest-resolver/status/{UMID_PATH}");
      assert.ok(d.endpoints.log.startsWith("/.well-known/manifest-resolver/log/: "));
      assert.ok(d.endpoints.statusList.startsWith("/.well-known/manifest-resolver/status-list/<listId>: "));
      assert.ok(d.endpoints.resolvers.startsWith("/.well-known/um-resolvers: "));
      assert.equal(d.caching.resolved, "public, max-age=60");
      assert.equal(typeof d.privacy, "object");
    },
  });

  for (const [umid, manifest] of healthy) {
    const label = JSON.stringify(umid.length > 40 ? `${umid.slice(0, 40)}…` : umid);
    cases.push(
      ok(`200 ${label} by ${umidPath(umid)[1] === "b" ? "b64u (auto)" : "direct"} path`, umidPath(umid), manifest),
    );
    cases.push(ok(`200 ${label} by b64u path`, umidPath(umid, "b64u"), manifest));
  }
  const [firstUmid, first] = healthy[0]!;
  const firstPath = umidPath(firstUmid);
  const firstEtag = etagOf(manifestBody(first));
  const opaque = firstEtag.slice(2);
  cases.push(ok("200 ignores the query string", `${firstPath}?cache=bust&x=1`, first));
  cases.push(
    ok(
      "200 direct path with a literal b64u: prefix, percent-encoded",
      "/b64u%3Anot-really-base64",
      f.published.get("b64u:not-really-base64")!,
    ),
  );
  cases.push(notModified("304 If-None-Match: the ETag", firstPath, first, firstEtag));
  cases.push(notModified("304 If-None-Match: strong form, weak comparison", firstPath, first, opaque));
  cases.push(notModified("304 If-None-Match: a list", firstPath, first, `"other", W/"x,y", ${firstEtag}`));
  cases.push(notModified("304 If-None-Match: *", firstPath, first, "*"));
  cases.push(notModified("304 If-None-Match: Netlify's -df suffix", firstPath, first, `${firstEtag.slice(0, -1)}-df"`));
  cases.push(notModified("304 by b64u path", umidPath(firstUmid, "b64u"), first, firstEtag));
  cases.push(
    ok("200 If-None-Match: another ETag", firstPath, first, { "If-None-Match": 'W/"sha256-AAAA", "sha256-BBBB"' }),
  );
  cases.push(
    ok("200 If-None-Match: another manifest's ETag", firstPath, first, {
      "If-None-Match": etagOf(manifestBody(healthy[1]![1])),
    }),
  );

  for (const [umid, location] of f.redirects) {
    for (const path of [umidPath(umid), umidPath(umid, "b64u")]) {
      cases.push({
        name: `307 ${JSON.stringify(umid)} at ${path}`,
        method: "GET",
        path,
        status: 307,
        headers: { location, "cache-control": "public, max-age=60", etag: null },
        body: EMPTY,
      });
    }
  }
  const [redirected, location] = [...f.redirects][0]!;
  cases.push({
    name: "307 If-None-Match: * does not match a redirect",
    method: "GET",
    path: umidPath(redirected),
    requestHeaders: { "If-None-Match": "*" },
    status: 307,
    headers: { location, "cache-control": "public, max-age=60" },
    body: EMPTY,
  });

  for (const umid of f.revoked) {
    cases.push(error(`410 ${JSON.stringify(umid)}`, "GET", umidPath(umid), 410, { error: "revoked", umid }));
  }
  for (const umid of [
    "urn:uuid:00000000-0000-4000-8000-000000000000",
    "never published/ünï 🚀",
    `${f.caseTwins[0]}x`,
  ]) {
    cases.push(error(`404 ${JSON.stringify(umid)}`, "GET", umidPath(umid), 404, { error: "not_found", umid }));
  }
  cases.push(
    error(
      "404 If-None-Match: * on an unknown UMID",
      "GET",
      "/unknown",
      404,
      { error: "not_found", umid: "unknown" },
      { "If-None-Match": "*" },
    ),
  );
  for (const umid of [f.corruptMissing, f.corruptAltered]) {
    cases.push(error(`500 ${JSON.stringify(umid)}`, "GET", umidPath(umid), 500, { error: "corrupt_record", umid }));
    const recorded = etagOf(manifestBody(f.published.get(umid)!));
    cases.push(
      error(
        `500, not 304, for ${JSON.stringify(umid)}`,
        "GET",
        umidPath(umid),
        500,
        { error: "corrupt_record", umid },
        { "If-None-Match": recorded },
      ),
    );
  }

  const badPaths: [string, string][] = [
    ["/", "missing UMID"],
    ["/a/b", "unexpected extra path segments"],
    ["/urn:x/", "unexpected extra path segments"],
    ["//", "unexpected extra path segments"],
    ["/b64u:", "empty UMID"],
    ["/b64u:not*base64", "invalid b64u UMID encoding"],
    ["/b64u:QR", "invalid b64u UMID encoding"],
    ["/b64u:QQ==", "invalid b64u UMID encoding"],
    ["/b64u:_w", "invalid b64u UMID encoding"],
    ["/%E0%A4%A", "invalid UMID encoding"],
    ["/%FF", "invalid UMID encoding"],
    ["/%", "invalid UMID encoding"],
  ];
  for (const [path, message] of badPaths) if (path !== "/") cases.push(badRequest(path, message));
  cases.push(...homeCases());
  cases.push(...statusCases(f, healthy, badPaths));
  cases.push(...didDocumentCases(f));
  cases.push(...logCases(f));
  cases.push(...proofCases(f, healthy));
  cases.push(...wellKnownCases(f));

  // Every path allows GET, HEAD and OPTIONS, and a 405 says so (RFC 9110 §15.5.6): the manifest, each endpoint, each
  // published document, and a path that is no UMID's.
  const notAllowed = (method: string, path: string): ContractCase => {
    const answer = error(`405 ${method} ${path}`, method, path, 405, { error: "method_not_allowed" });
    return { ...answer, headers: { ...answer.headers, allow: "GET, HEAD, OPTIONS" } };
  };
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) cases.push(notAllowed(method, firstPath));
  for (const path of [
    "/health",
    "/.well-known/manifest-resolver.json",
    statusPath(firstUmid),
    "/.well-known/did.json",
    `${LOG_PREFIX}checkpoint`,
    "/.well-known/um-resolvers",
    "/a/b",
  ])
    cases.push(notAllowed("POST", path));

  for (const path of [firstPath, "/health", "/a/b"]) {
    cases.push({
      name: `204 OPTIONS preflight ${path}`,
      method: "OPTIONS",
      path,
      requestHeaders: {
        Origin: "https://page.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "if-none-match",
      },
      status: 204,
      headers: { "cache-control": "no-store", etag: null },
      body: EMPTY,
    });
  }

  // HEAD: GET's status and headers, no body; a Content-Length, if sent, is GET's.
  for (const c of [...cases]) {
    if (c.method !== "GET") continue;
    const getLength = Buffer.isBuffer(c.body) ? String(c.body.length) : undefined;
    const { "content-length": _, ...headers } = c.headers;
    cases.push({
      ...c,
      name: `HEAD ${c.name}`,
      method: "HEAD",
      headers: {
        ...headers,
        "content-length": (v) =>
          v === undefined || getLength === undefined || v === getLength || (c.status === 304 && v === "0"),
      },
      body: EMPTY,
    });
  }
  return cases;
}

/**
 * The status endpoint (EXT-OPT O2.2): each UMID's document, its cursor 16 digits of
 * milliseconds since 1970 to updatedAt, its ETag the digest of the document, as every
 * body's (a reason may change while the cursor stays), and a 304 for it; 404 for a UMID
 * with no status here; the resolve endpoint's path rules after the prefix.
 */
function statusCases(
  f: Fixture,
  healthy: [string, Record<string, unknown>][],
  badPaths: [string, string][],
): ContractCase[] {
  const cases: ContractCase[] = [];
  const documentOf = (umid: string) => {
    const { status, updatedAt, reason } = f.statuses.get(umid)!;
    const cursor = String(Date.parse(updatedAt)).padStart(16, "0");
    const body = json({
      manifestId: umid,
      status,
      updatedAt,
      ...(reason !== undefined && { reason }),
      cursor,
      nextCheck: "PT10M",
    });
    return { body, etag: etagOf(body) };
  };
  const statusOk = (
    name: string,
    path: string,
    umid: string,
    requestHeaders?: Record<string, string>,
  ): ContractCase => {
    const { body, etag } = documentOf(umid);
    return {
      name,
      method: "GET",
      path,
      ...(requestHeaders && { requestHeaders }),
      status: 200,
      headers: {
        "content-type": "application/json",
        "cache-control": "public, max-age=60",
        etag,
        "content-length": String(body.length),
      },
      body,
    };
  };
  for (const [umid] of healthy) {
    const label = JSON.stringify(umid.length > 40 ? `${umid.slice(0, 40)}…` : umid);
    cases.push(statusOk(`status 200 ${label} (${f.statuses.get(umid)!.status})`, statusPath(umid), umid));
  }
  for (const umid of f.revoked)
    cases.push(statusOk(`status 200 ${JSON.stringify(umid)} (revoked)`, statusPath(umid), umid));
  const [firstUmid] = healthy[0]!;
  const { etag } = documentOf(firstUmid);
  cases.push(statusOk("status 200 by b64u path", statusPath(firstUmid, "b64u"), firstUmid));
  cases.push(
    statusOk("status 200 If-None-Match: the manifest's ETag is not the status's", statusPath(firstUmid), firstUmid, {
      "If-None-Match": etagOf(manifestBody(healthy[0]![1])),
    }),
  );
  for (const ifNoneMatch of [etag, etag.slice(2), "*"]) {
    cases.push({
      name: `status 304 If-None-Match: ${ifNoneMatch}`,
      method: "GET",
      path: statusPath(firstUmid),
      requestHeaders: { "If-None-Match": ifNoneMatch },
      status: 304,
      headers: { "content-type": "application/json", "cache-control": "public, max-age=60", etag },
      body: EMPTY,
    });
  }
  for (const umid of [...f.redirects.keys(), "urn:uuid:00000000-0000-4000-8000-000000000000"]) {
    cases.push(error(`status 404 ${JSON.stringify(umid)}`, "GET", statusPath(umid), 404, { error: "not_found", umid }));
  }
  cases.push(
    error(`status 500 ${JSON.stringify(f.corruptAltered)}`, "GET", statusPath(f.corruptAltered), 500, {
      error: "corrupt_record",
      umid: f.corruptAltered,
    }),
  );
  cases.push(badRequest(STATUS_PREFIX, "missing UMID"));
  for (const [path, message] of badPaths) cases.push(badRequest(STATUS_PREFIX + path, message));
  return cases;
}

/** What Chromium sends for a page it navigates to. */
export const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";

/**
 * The resolver's own address: the contract's 400 "missing UMID", byte for byte, to every client but one whose Accept
 * prefers HTML (RFC 9110 §12.5.1, by weight and then by the most specific range), which gets a page with no script
 * that says how to ask and where people look UMIDs up (no lookup page known here: where the build writes it). Both
 * answers vary by Accept.
 */
function homeCases(): ContractCase[] {
  const missing = badRequest("/", "missing UMID");
  const json400 = (why: string, accept?: string): ContractCase => ({
    ...missing,
    name: `400 missing UMID at /, ${why}`,
    ...(accept !== undefined && { requestHeaders: { Accept: accept } }),
    headers: { ...missing.headers, vary: "Accept" },
  });
  const html = (why: string, accept: string, method = "GET"): ContractCase => ({
    name: `200 the resolver's page at /, ${why}`,
    method,
    path: "/",
    requestHeaders: { Accept: accept },
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      vary: "Accept",
      "content-security-policy": (value) =>
        value?.includes("default-src 'none'") === true && !/script-src|unsafe/.test(value),
      etag: null,
      "content-length": (value) => value !== undefined && Number(value) > 0,
    },
    body:
      method === "HEAD"
        ? EMPTY
        : (body) => {
            const text = body.toString();
            assert.match(text, /^<!doctype html>\n<html lang="en">/);
            assert.doesNotMatch(text, /<script|\son\w+=/i, "no script");
            assert.match(text, /<code>GET \/b64u:/);
            assert.match(text, /href="\/\.well-known\/manifest-resolver\.json"/);
            assert.match(text, /<code>dist-lookup\/<\/code>/, "where the lookup page is, none being known here");
          },
  });
  return [
    json400("no Accept"),
    json400("Accept: application/json", "application/json"),
    json400("Accept: */*", "*/*"),
    json400("HTML weighed below JSON", "text/html;q=0.5, application/json"),
    json400("HTML refused by its own range", `text/html;q=0, ${BROWSER_ACCEPT.replace("text/html,", "")}`),
    json400("an unreadable weight ignored", "text/html;q=2, application/json;q=0.1"),
    html("a browser's Accept", BROWSER_ACCEPT),
    html("text/* over */*", "text/*, */*;q=0.9"),
    html("HEAD", BROWSER_ACCEPT, "HEAD"),
  ];
}

/**
 * The did:web documents of the keys pinned on the resolver's host (W3C CCG did:web, "Read (Resolve)": a bare host at
 * /.well-known/did.json, a path's segments then did.json; the port percent-encoded in the DID), each listing every
 * key pinned under it, by keyRef, as a Multikey also under assertionMethod, served as application/did+json with the
 * digest of its bytes as its ETag, and 304 for it. A did.json path with no document is a path like any other.
 */
function didDocumentCases(f: Fixture): ContractCase[] {
  const cases: ContractCase[] = [];
  const etags: string[] = [];
  for (const [path, { did, keys }] of f.didDocuments) {
    const keyRefs = [...keys.keys()].map((fragment) => `${did}${fragment}`).sort();
    const pinned = new Map([...keys].map(([fragment, key]) => [`${did}${fragment}`, rawPublicKey(key)]));
    const expected = json({
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
      id: did,
      verificationMethod: keyRefs.map((keyRef) => ({
        id: keyRef,
        type: "Multikey",
        controller: did,
        publicKeyMultibase: didKeyOf(pinned.get(keyRef)!).slice("did:key:".length),
      })),
      assertionMethod: keyRefs,
    });
    const etag = etagOf(expected);
    etags.push(etag);
    const headers = { "content-type": "application/did+json", "cache-control": "public, max-age=60", etag };
    cases.push({
      name: `did:web document of ${did}`,
      method: "GET",
      path,
      status: 200,
      headers: { ...headers, "content-length": String(expected.length) },
      body: (body) => {
        assert.equal(body.toString("latin1"), expected.toString("latin1"), "body bytes");
        // Each key, decoded from its multibase as a relying party does, is the key _keys.json pins.
        const document = JSON.parse(body.toString()) as {
          verificationMethod: { id: string; publicKeyMultibase: string }[];
        };
        for (const { id, publicKeyMultibase } of document.verificationMethod) {
          const decoded = resolveKeyRefLocally(`did:key:${publicKeyMultibase}`);
          assert.deepEqual(decoded, { kind: "resolved", publicKey: new Uint8Array(pinned.get(id)!) });
        }
      },
    });
    for (const ifNoneMatch of [etag, etag.slice(2)])
      cases.push({
        name: `did:web document 304 If-None-Match: ${ifNoneMatch}`,
        method: "GET",
        path,
        requestHeaders: { "If-None-Match": ifNoneMatch },
        status: 304,
        headers,
        body: EMPTY,
      });
  }
  const [first, second] = [...f.didDocuments.keys()];
  cases.push({
    name: "did:web document 200 If-None-Match: another document's ETag",
    method: "GET",
    path: first!,
    requestHeaders: { "If-None-Match": etags[1]! },
    status: 200,
    headers: { "content-type": "application/did+json", etag: etags[0]! },
    body: () => {},
  });
  // Paths are exact: no other did.json is published, and none is found by another letter case.
  for (const path of ["/users/bob/did.json", second!.toUpperCase(), `${second}/did.json`])
    cases.push(badRequest(path, "unexpected extra path segments"));
  cases.push(
    error("404 the UMID did.json: no document there", "GET", "/did.json", 404, {
      error: "not_found",
      umid: "did.json",
    }),
  );
  return cases;
}

/**
 * The status list of content/_status/ (issue 27; VC Bitstring Status List §2.2) and the discovery document (EXT-OPT
 * O5), served as application/vc+ld+json and application/json, cached for 300 s, with the digest of their bytes as
 * their ETag and 304 for it; 404 for a list the build did not publish.
 */
function wellKnownCases(f: Fixture): ContractCase[] {
  const { path, url, codes } = f.statusList;
  const cached = "public, max-age=300";
  const list: ContractCase = {
    name: "status list",
    method: "GET",
    path,
    status: 200,
    headers: {
      "content-type": "application/vc+ld+json",
      "cache-control": cached,
      etag: (value) => value !== undefined && /^W\/"/.test(value),
    },
    body: (body) => {
      const credential = JSON.parse(body.toString()) as {
        id: string;
        type: string[];
        credentialSubject: { statusSize: number; statusPurpose: string; encodedList: string };
      };
      assert.equal(credential.id, url);
      assert.ok(credential.type.includes("BitstringStatusListCredential"));
      const { encodedList, statusSize, statusPurpose } = credential.credentialSubject;
      assert.deepEqual([statusSize, statusPurpose], [2, "message"]);
      // Multibase base64url of the GZIP of the bitstring, most significant bit first (§2.2).
      const bits = gunzipSync(Buffer.from(encodedList.slice(1), "base64url"));
      assert.equal(bits.length, (131072 * 2) / 8);
      const codeAt = (index: number) => (bits[index >> 2]! >> (6 - 2 * (index & 3))) & 3;
      for (let index = 0; index < 131072; index++) assert.equal(codeAt(index), codes.get(index) ?? 0, `entry ${index}`);
    },
  };
  const resolvers = json(f.resolvers);
  return [
    list,
    {
      // Its ETag is the digest of bytes this table does not make (a GZIP stream): "*" matches whatever it is.
      name: "status list 304 If-None-Match: *",
      method: "GET",
      path,
      requestHeaders: { "If-None-Match": "*" },
      status: 304,
      headers: { "content-type": "application/vc+ld+json", "cache-control": cached },
      body: EMPTY,
    },
    error("status list 404: a list not published", "GET", `${path.slice(0, -1)}0`, 404, {
      error: "not_found",
      path: `${path.slice(0, -1)}0`,
    }),
    {
      name: "discovery document",
      method: "GET",
      path: "/.well-known/um-resolvers",
      status: 200,
      headers: { "content-type": "application/json", "cache-control": cached, etag: etagOf(resolvers) },
      body: resolvers,
    },
  ];
}

const LOG_PREFIX = "/.well-known/manifest-resolver/log/";

/** The entries of an entry bundle (C2SP tlog-tiles: each a big-endian uint16 length, then its bytes). */
function bundleEntries(bundle: Buffer): string[] {
  const entries: string[] = [];
  for (let at = 0; at < bundle.length; at += 2 + bundle.readUInt16BE(at))
    entries.push(bundle.subarray(at + 2, at + 2 + bundle.readUInt16BE(at)).toString("utf8"));
  return entries;
}

/**
 * The transparency log (issue 26, section 4) under /.well-known/manifest-resolver/log/, as C2SP tlog-tiles serves
 * one: the checkpoint as text/plain, short-lived; the fixture's tiles and entry bundle, all partial (its log has fewer
 * than 256 entries), as application/octet-stream, as short-lived as the checkpoint; the latest map's one bucket file,
 * immutable (its path names the tree's size), its bytes those of the map the checkpoint commits to; each with the
 * digest of its bytes as its ETag, and 304 for it. 404 for every path the log serves nothing at: the verifier key,
 * which a client must have from elsewhere, other widths and sizes, other spellings of a served path.
 */
function logCases(f: Fixture): ContractCase[] {
  const cases: ContractCase[] = [];
  const served = (path: string, contentType: string, cacheControl: string, body: Buffer) => {
    const etag = etagOf(body);
    const headers = { "content-type": contentType, "cache-control": cacheControl, etag };
    cases.push({
      name: `log ${path}`,
      method: "GET",
      path: LOG_PREFIX + path,
      status: 200,
      headers: { ...headers, "content-length": String(body.length) },
      body,
    });
    for (const ifNoneMatch of [etag, "*"])
      cases.push({
        name: `log ${path} 304 If-None-Match: ${ifNoneMatch}`,
        method: "GET",
        path: LOG_PREFIX + path,
        requestHeaders: { "If-None-Match": ifNoneMatch },
        status: 304,
        headers,
        body: EMPTY,
      });
  };
  const { size, files } = f.log;
  for (const [path, bytes] of files) {
    assert.ok(path === "checkpoint" || path.includes(".p/"), `${path}: the fixture's log has only partial tiles`);
    served(
      path,
      path === "checkpoint" ? "text/plain; charset=utf-8" : "application/octet-stream",
      "public, max-age=5",
      bytes,
    );
  }
  const latest: Record<string, number> = {};
  bundleEntries(files.get(`tile/entries/000.p/${size}`)!).forEach((entry, index) => {
    latest[(JSON.parse(entry) as { umid: string }).umid] = index;
  });
  assert.ok(Object.keys(latest).length <= 256, "one bucket");
  const leaf = Buffer.from(canonicalize(latest));
  const root = createHash("sha256")
    .update(Buffer.concat([Buffer.from([0]), leaf]))
    .digest("base64");
  assert.ok(files.get("checkpoint")!.toString().includes(`\nmanifest-resolver/latest 0 ${root}\n`), "the map's root");
  served(`latest/${size}/0`, "application/json", "public, max-age=31536000, immutable", json({ latest, proof: [] }));

  const notServed = [
    "verifier",
    "",
    "checkpoint/",
    "tile/0/000",
    `tile/0/000.p/${size - 1}`,
    `tile/0/x000/000.p/${size}`,
    `tile/0/0.p/${size}`,
    `tile/00/000.p/${size}`,
    `tile/1/000.p/${size}`,
    `tile/0/000.p/0${size}`,
    "tile/entries/000",
    `latest/${size}/1`,
    `latest/${size}/00`,
    `latest/${size - 1}/0`,
    `latest/0${size}/0`,
    `tile%2F0%2F000.p%2F${size}`,
    "resolver.json",
    "did-documents.json",
  ];
  for (const path of notServed)
    cases.push(
      error(`log 404 ${path}`, "GET", LOG_PREFIX + path, 404, { error: "not_found", path: LOG_PREFIX + path }),
    );
  // Out of the prefix by dot segments (as URL parsing reads them, encoded or not), no file of the output is reached.
  for (const path of ["../resolver.json", "%2e%2e/%2E%2E/resolver.json", "tile/../../checkpoint"])
    cases.push(badRequest(LOG_PREFIX + path, "unexpected extra path segments"));
  return cases;
}

/**
 * Offline proofs (issue 41) at PROOF_PREFIX/{UMID_PATH}: each logged UMID's, as text/plain, as short-lived as the
 * checkpoint it holds, its ETag the digest of its bytes; each verifies offline, under the log's key alone, as the
 * proof that the UMID's published body is its latest (a body altered on disk after the build changes nothing: the
 * proof is the log's). 304 for it; 404 for a UMID the log has no entry of; 400 for a bad UMID_PATH, as the resolve
 * endpoint's.
 */
function proofCases(f: Fixture, healthy: [string, Record<string, unknown>][]): ContractCase[] {
  const verifier = readFileSync(join(f.content, "_log", "verifier"), "utf8").trim();
  const policy = keyOnlyPolicy(parseVerifierKey(verifier)!);
  const proven = (umid: string, path: string): ContractCase => ({
    name: `proof 200 ${JSON.stringify(umid.length > 40 ? `${umid.slice(0, 40)}…` : umid)} at ${path.slice(0, 60)}`,
    method: "GET",
    path,
    status: 200,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=5", link: null },
    body: async (body, headers) => {
      assert.equal(headers.etag, etagOf(body));
      assert.equal(headers["content-length"], String(body.length));
      const verified = await verifyOfflineProof(body.toString(), umid, manifestBody(f.published.get(umid)!), policy, {
        now: Date.now(),
      });
      assert.ok(verified.ok, JSON.stringify(verified));
    },
  });
  const cases: ContractCase[] = [];
  for (const [umid] of healthy) cases.push(proven(umid, PROOF_PREFIX + umidPath(umid)));
  const [firstUmid] = healthy[0]!;
  cases.push(proven(firstUmid, PROOF_PREFIX + umidPath(firstUmid, "b64u")));
  cases.push(proven(f.corruptAltered, PROOF_PREFIX + umidPath(f.corruptAltered)));
  cases.push({
    name: "proof 304 If-None-Match: *",
    method: "GET",
    path: PROOF_PREFIX + umidPath(firstUmid),
    requestHeaders: { "If-None-Match": "*" },
    status: 304,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "public, max-age=5",
      etag: (value) => value !== undefined && /^W\/"sha256-[A-Za-z0-9_-]{43}"$/.test(value),
    },
    body: EMPTY,
  });
  for (const umid of ["urn:uuid:00000000-0000-4000-8000-000000000000", "never published/ünï 🚀"])
    cases.push(error(`proof 404 ${JSON.stringify(umid)}`, "GET", PROOF_PREFIX + umidPath(umid), 404, unknown(umid)));
  const badPaths: [string, string][] = [
    ["", "missing UMID"],
    ["/a/b", "unexpected extra path segments"],
    ["/b64u:", "empty UMID"],
    ["/%FF", "invalid UMID encoding"],
  ];
  for (const [path, message] of badPaths) cases.push(badRequest(PROOF_PREFIX + path, message));
  return cases;
}

const unknown = (umid: string) => ({ error: "not_found", umid });

/**
 * A resolver whose content keeps no log: its manifest answers link to no proof, and there is none to fetch.
 */
export function unloggedCases(umid: string, manifest: Record<string, unknown>): ContractCase[] {
  const path = umidPath(umid);
  return [
    ok(`unlogged 200 ${JSON.stringify(umid)}`, path, manifest, undefined, false),
    notModified(`unlogged 304 ${JSON.stringify(umid)}`, path, manifest, "*", false),
    error(`unlogged proof 404 ${JSON.stringify(umid)}`, "GET", PROOF_PREFIX + path, 404, unknown(umid)),
  ];
}

export async function assertAnswers(c: ContractCase, response: RawResponse): Promise<void> {
  assert.equal(response.status, c.status, `status of ${c.method} ${c.path}: ${response.body.toString().slice(0, 200)}`);
  for (const [name, expected] of Object.entries({ ...EVERY_RESPONSE, ...c.headers })) {
    const actual = response.headers[name];
    if (typeof expected === "function") assert.ok(expected(actual), `header ${name}: ${JSON.stringify(actual)}`);
    else if (expected === null) assert.equal(actual, undefined, `header ${name} must be absent`);
    else assert.equal(actual, expected, `header ${name}`);
  }
  if (typeof c.body === "function") await c.body(response.body, response.headers);
  else assert.equal(response.body.toString("latin1"), c.body.toString("latin1"), "body bytes");
}
