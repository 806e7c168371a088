/**
 * Resolving a did:web keyRef over the network (core §1.6.4, step 4; W3C CCG did:web):
 * the document's URL, the key formats a DID document may use, and the evaluator against
 * DID documents served here, on localhost: a match resolves, a substituted key is
 * rejected, and each way a document can fail to confirm a key gives its own reason.
 */
import assert from "node:assert/strict";
import type { KeyObject } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Fetch } from "../core/http/fetch-following.ts";
import { memoryCache } from "../core/http/http-cache.ts";
import { resolve } from "../core/client/resolve.ts";
import { keyInDidDocument } from "../core/did/document-key.ts";
import { evaluate, type EvaluateOptions, type Receipt } from "../core/evaluate/index.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { checkContent } from "../scripts/check/check-content.ts";
import { earlyOnlineKeys } from "../scripts/check/online-keys.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { didDocumentOf, encodeBase58btc } from "./support/did.ts";
import { manifestFor, newKey } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";

const NOW = "2026-06-01T00:00:00Z";
const context = { now: NOW, omitProcessedAt: true };

describe("did:web: the key a DID document gives (DID Core §5.2, §5.3.1)", () => {
  const did = "did:web:example.com";
  const key = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
  const multikey = `z${encodeBase58btc(Uint8Array.from([0xed, 0x01, ...key]))}`;
  const jwk = { kty: "OKP", crv: "Ed25519", x: Buffer.from(key).toString("base64url") };
  const withMethod = (method: Record<string, unknown>, assertionMethod: unknown[] = [`${did}#k`]) => ({
    id: did,
    verificationMethod: [{ id: `${did}#k`, controller: did, ...method }],
    assertionMethod,
  });
  const keyOf = (document: unknown, keyRef = `${did}#k`) => keyInDidDocument(document, did, keyRef);

  it("reads Multikey, Ed25519VerificationKey2020 and 2018, JsonWebKey and JsonWebKey2020", () => {
    for (const method of [
      { type: "Multikey", publicKeyMultibase: multikey },
      { type: "Ed25519VerificationKey2020", publicKeyMultibase: multikey },
      { type: "Ed25519VerificationKey2018", publicKeyBase58: encodeBase58btc(key) },
      { type: "JsonWebKey", publicKeyJwk: jwk },
      { type: "JsonWebKey2020", publicKeyJwk: jwk },
    ])
      assert.deepEqual(keyOf(withMethod(method)), { publicKey: key }, method.type);
  });

  it("finds a method by relative id, embedded under assertionMethod, and the only one for a bare DID", () => {
    const method = { type: "Multikey", publicKeyMultibase: multikey };
    assert.deepEqual(keyOf({ id: did, verificationMethod: [{ id: "#k", ...method }], assertionMethod: ["#k"] }), {
      publicKey: key,
    });
    assert.deepEqual(keyOf({ id: did, assertionMethod: [{ id: `${did}#k`, ...method }] }), { publicKey: key });
    assert.deepEqual(keyOf(withMethod(method), did), { publicKey: key });
  });

  it("refuses another DID's document, a method not there or not for assertions, and keys it cannot read", () => {
    const multi = { type: "Multikey", publicKeyMultibase: multikey };
    const faultOf = (document: unknown, keyRef?: string) => (keyOf(document, keyRef) as { fault: string }).fault;
    assert.equal(faultOf([]), "document-malformed");
    assert.equal(faultOf({ ...withMethod(multi), id: "did:web:mallory.example" }), "document-id-mismatch");
    assert.equal(faultOf(withMethod(multi), `${did}#other`), "method-not-found");
    assert.equal(faultOf(withMethod(multi, [])), "not-assertion-method");
    assert.equal(faultOf(withMethod(multi, ["#k", "#j"]), did), "method-not-found");
    assert.equal(faultOf(withMethod({ type: "EcdsaSecp256k1VerificationKey2019" })), "key-unsupported");
    assert.equal(faultOf(withMethod({ type: "JsonWebKey", publicKeyJwk: { ...jwk, d: "secret" } })), "key-unsupported");
    assert.equal(faultOf(withMethod({ type: "Multikey", publicKeyMultibase: "z6LS" })), "key-unsupported");
  });
});

/** A DID document server on localhost: each path's handler, and every request it was asked. */
interface DidHost {
  server: Server;
  port: number;
  did: string;
  requests: { path: string; ifNoneMatch?: string }[];
  routes: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
}

async function startDidHost(): Promise<DidHost> {
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const requests: DidHost["requests"] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const ifNoneMatch = req.headers["if-none-match"];
    requests.push({ path, ...(ifNoneMatch !== undefined && { ifNoneMatch }) });
    const route = routes.get(path);
    if (route === undefined) {
      res.writeHead(404).end();
      return;
    }
    route(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  return { server, port, did: `did:web:localhost%3A${port}`, requests, routes };
}

const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/did+json", ...headers }).end(JSON.stringify(body));
  };

describe("did:web: the evaluator resolves keyRef over the network (core §1.6.4, step 4)", () => {
  let host: DidHost;
  const key = newKey();
  const DOCUMENT = "/.well-known/did.json";

  before(async () => {
    host = await startDidHost();
  });
  after(() => {
    host.server.closeAllConnections();
    host.server.close();
  });

  const signedBy = (signer: KeyObject, umid = "urn:did-web:1", keyRef = `${host.did}#key-1`) => {
    const manifest = manifestFor(umid);
    return { ...manifest, signature: signProfileA(manifest, signer, keyRef, new Date("2026-01-01T00:00:00Z")) };
  };
  /** Options of a fresh cache and a short timeout: evaluate() fetches by default, as every test here has it do. */
  const online = (more: Pick<EvaluateOptions, "fetch" | "cache" | "timeoutMs"> = {}): EvaluateOptions => ({
    cache: memoryCache(),
    timeoutMs: 2_000,
    ...more,
  });
  const served = (document: unknown, headers: Record<string, string> = {}) => {
    host.routes.clear();
    host.requests.length = 0;
    host.routes.set(DOCUMENT, json(document, headers));
  };
  const reasonOf = (r: Receipt) => r.keyRefResolutionReason;

  it("a document that lists the embedded key under assertionMethod: resolved, by the document's URL", async () => {
    served(didDocumentOf(host.did, key));
    const r = await evaluate(signedBy(key), context, online());
    assert.deepEqual([r.outcome, r.signatureCheck, r.keyRefResolution], ["accepted", "valid", "resolved"]);
    assert.equal(r.keyRefResolvedBy, `http://localhost:${host.port}${DOCUMENT}`);
    assert.deepEqual(r.warnings, []);
  });

  it("the resolved key stands in for a key the manifest does not embed", async () => {
    served(didDocumentOf(host.did, key));
    const m = signedBy(key);
    const { publicKeySpkiB64: _, ...signature } = m.signature;
    const r = await evaluate({ ...m, signature }, context, online());
    assert.deepEqual([r.outcome, r.signatureCheck, r.keyRefResolution], ["accepted", "valid", "resolved"]);
  });

  it("a key substituted for the DID's: rejected, signatureCheck invalid, rule signature/keyref-mismatch", async () => {
    served(didDocumentOf(host.did, key));
    const r = await evaluate(signedBy(newKey()), context, online());
    assert.deepEqual([r.outcome, r.signatureCheck], ["rejected", "invalid"]);
    assert.deepEqual(
      r.warnings.map((w) => w.rule),
      ["signature/keyref-mismatch"],
    );
  });

  it("each way a document fails to confirm the key gives its own reason; a DID that says no rejects", async () => {
    const serveOnly = (route: (req: IncomingMessage, res: ServerResponse) => void) => () => {
      served({});
      host.routes.set(DOCUMENT, route);
    };
    // [what, serve it, the fault, whether the DID answered that it has no such key (which rejects, §1.6.4)]
    const cases: [string, () => void, string, boolean][] = [
      [
        "another DID's document",
        () => served(didDocumentOf("did:web:mallory.example", key)),
        "document-id-mismatch",
        true,
      ],
      [
        "a key not under assertionMethod",
        () => served(didDocumentOf(host.did, key, { assertionMethod: [] })),
        "not-assertion-method",
        true,
      ],
      [
        "no verification method of the keyRef's id",
        () => served(didDocumentOf(host.did, key, { verificationMethod: [], assertionMethod: [] })),
        "method-not-found",
        true,
      ],
      [
        "a method of a type not read here",
        () =>
          served(
            didDocumentOf(host.did, key, {
              verificationMethod: [{ id: `${host.did}#key-1`, type: "EcdsaSecp256k1VerificationKey2019" }],
            }),
          ),
        "key-unsupported",
        true,
      ],
      ["no document (404)", serveOnly((_req, res) => res.writeHead(404).end()), "did-not-found", true],
      [
        "two methods of one id",
        () => {
          const document = didDocumentOf(host.did, key);
          const [method] = document.verificationMethod as object[];
          served({ ...document, verificationMethod: [method, method] });
        },
        "document-malformed",
        false,
      ],
      [
        "a document larger than 64 KiB",
        () => served({ ...didDocumentOf(host.did, key), pad: "x".repeat(70_000) }),
        "too-large",
        false,
      ],
      [
        "a redirect to another origin",
        serveOnly((_req, res) =>
          res.writeHead(302, { location: `http://127.0.0.1:${host.port}/elsewhere/did.json` }).end(),
        ),
        "redirect-cross-origin",
        false,
      ],
      ["no answer in time", serveOnly(() => {}), "timeout", false],
      ["a server error", serveOnly((_req, res) => res.writeHead(503).end()), "http-status", false],
      ["a document that is not JSON", () => served("{"), "document-malformed", false],
    ];
    const seen = new Set<string>();
    for (const [what, serve, fault, definitive] of cases) {
      serve();
      const r = await evaluate(signedBy(key), context, online({ timeoutMs: 300 }));
      const code = `um:reason:key:${fault}`;
      assert.deepEqual(
        [r.outcome, r.signatureCheck, r.keyRefResolution, reasonOf(r)],
        definitive
          ? ["rejected", "invalid", "unresolved", code]
          : ["accepted-with-warnings", "valid", "unresolved", code],
        what,
      );
      assert.deepEqual(
        r.warnings.map((w) => [w.code, w.rule, w.pointer]),
        [[code, definitive ? "signature/keyref-mismatch" : undefined, "/signature/keyRef"]],
        what,
      );
      seen.add(r.warnings[0]!.message);
    }
    assert.equal(seen.size, cases.length, "each reason is said in its own words");
  });

  it("a DID document is kept apart from other responses: a redirect cannot plant one in the client's cache", async () => {
    // The resolver answers the UMID "did.json" with a redirect to a document of another origin; the manifest that
    // follows names the did:web whose document URL that request was.
    const evil = newKey();
    const did = `did:web:localhost%3A${host.port}:r`;
    const planted = didDocumentOf(did, evil);
    const manifest = manifestFor("urn:did-web:planted");
    const forged = { ...manifest, signature: signProfileA(manifest, evil, `${did}#key-1`, new Date(NOW)) };
    const fetch: Fetch = async (url) => {
      if (url === `http://localhost:${host.port}/r/did.json`)
        return new Response(null, { status: 307, headers: { location: "http://127.0.0.1:9/planted" } });
      if (url === "http://127.0.0.1:9/planted")
        return Response.json(planted, { headers: { "cache-control": "max-age=31536000" } });
      if (url.endsWith("/urn%3Adid-web%3Aplanted")) return Response.json(forged);
      return new Response(null, { status: 404 });
    };
    const cache = memoryCache();
    const options = { fetch, cache, context };
    await resolve(`http://localhost:${host.port}/r`, "did.json", options);
    const result = await resolve("http://127.0.0.1:9", "urn:did-web:planted", options);
    assert.ok("receipt" in result);
    assert.notEqual(result.receipt.keyRefResolution, "resolved");
  });

  // Issue 37, defect 4: the keyRef is the manifest's word, served by a resolver that may be anyone's.
  it("a remote resolver's manifest cannot make the client fetch a did:web on the client's machine", async () => {
    const asked: string[] = [];
    const manifest = signedBy(key, "urn:did-web:inward");
    const fetch: Fetch = async (url) => {
      asked.push(url);
      if (url.endsWith("/urn%3Adid-web%3Ainward")) return Response.json(manifest);
      return new Response(null, { status: 404 });
    };
    for (const base of ["https://resolver.example", "https://[::ffff:8.8.8.8]"]) {
      asked.length = 0;
      const result = await resolve(base, "urn:did-web:inward", { fetch, context, cache: memoryCache() });
      assert.ok("receipt" in result, base);
      assert.notEqual(result.receipt.keyRefResolution, "resolved", base);
      assert.deepEqual(
        asked.filter((url) => !url.startsWith(`${base}/`)),
        [],
        base,
      );
    }
  });

  it("evaluations at other clocks, or with other caches, never share what one of them judged fresh", async () => {
    const old = newKey();
    const url = `http://localhost:${host.port}${DOCUMENT}`;
    served(didDocumentOf(host.did, key));
    // An audit as of 2026-06-01 holds a document (listing the old key) its cache judges fresh then; the same
    // evaluation a year later, at once, must not take that document for the current one, which lists another key.
    const auditCache = memoryCache();
    await auditCache.set(`${url}#did-document`, {
      url,
      body: JSON.stringify(didDocumentOf(host.did, old)),
      storedAt: Date.parse(NOW),
      maxAge: 3600,
    });
    const manifest = signedBy(old);
    const [audit, later] = await Promise.all([
      evaluate(manifest, context, { online: { cache: auditCache } }),
      evaluate(manifest, { ...context, now: "2027-01-01T00:00:00Z" }, { online: { cache: memoryCache() } }),
    ]);
    assert.equal(audit.keyRefResolution, "resolved");
    assert.deepEqual([later.outcome, later.warnings.map((w) => w.rule)], ["rejected", ["signature/keyref-mismatch"]]);
  });

  it("follows a redirect within the DID's origin", async () => {
    served({});
    host.routes.set(DOCUMENT, (_req, res) => res.writeHead(301, { location: "/moved/did.json" }).end());
    host.routes.set("/moved/did.json", json(didDocumentOf(host.did, key)));
    const r = await evaluate(signedBy(key), context, online());
    assert.equal(r.keyRefResolution, "resolved");
    assert.equal(r.keyRefResolvedBy, `http://localhost:${host.port}/moved/did.json`);
  });

  it("1,000 manifests under one key cost one fetch: the document is kept by its max-age", async () => {
    served(didDocumentOf(host.did, key), { "cache-control": "max-age=300", etag: '"d1"' });
    const options = online();
    const manifests = Array.from({ length: 1000 }, (_, i) => signedBy(key, `urn:did-web:many:${i}`));
    // Half at once (requests in flight are shared), then half one after another (the cache answers).
    const first = await Promise.all(manifests.slice(0, 500).map((m) => evaluate(m, context, options)));
    const rest: Receipt[] = [];
    for (const m of manifests.slice(500)) rest.push(await evaluate(m, context, options));
    assert.ok([...first, ...rest].every((r) => r.keyRefResolution === "resolved"));
    assert.equal(host.requests.length, 1);
  });

  it("past its max-age, the document is revalidated with its ETag, and a 304 keeps it", async () => {
    const document = didDocumentOf(host.did, key);
    served(document, { "cache-control": "max-age=60", etag: '"d2"' });
    host.routes.set(DOCUMENT, (req, res) => {
      if (req.headers["if-none-match"] === '"d2"') res.writeHead(304, { "cache-control": "max-age=60" }).end();
      else json(document, { "cache-control": "max-age=60", etag: '"d2"' })(req, res);
    });
    const options = online();
    await evaluate(signedBy(key), context, options);
    const later = await evaluate(signedBy(key), { ...context, now: "2026-06-01T00:02:00Z" }, options);
    assert.equal(later.keyRefResolution, "resolved");
    assert.deepEqual(
      host.requests.map((r) => r.ifNoneMatch),
      [undefined, '"d2"'],
    );
  });

  it("by default the DID document is fetched; with offline, nothing is, and the receipt says why", async () => {
    served(didDocumentOf(host.did, key));
    const fetched = await evaluate(signedBy(key), context);
    assert.deepEqual([fetched.outcome, fetched.keyRefResolution], ["accepted", "resolved"]);
    assert.ok(host.requests.length > 0);
    served(didDocumentOf(host.did, key));
    const r = await evaluate(signedBy(key), context, { ...online(), offline: true });
    assert.deepEqual([r.outcome, r.keyRefResolution, reasonOf(r)], ["accepted", "unresolved", "um:reason:key:offline"]);
    assert.equal(host.requests.length, 0);
  });

  it("takes the deprecated `online` as what it stood for, unless `offline` is given", async () => {
    served(didDocumentOf(host.did, key));
    const off = await evaluate(signedBy(key), context, { online: false });
    assert.equal(reasonOf(off), "um:reason:key:offline");
    const asked: string[] = [];
    const fetch: Fetch = (url, init) => {
      asked.push(url);
      return globalThis.fetch(url, init);
    };
    const on = await evaluate(signedBy(key), context, { online: { fetch, cache: memoryCache(), timeoutMs: 2_000 } });
    assert.equal(on.keyRefResolution, "resolved");
    assert.deepEqual(asked, [`http://localhost:${host.port}${DOCUMENT}`], "the object's fetch is used");
    const offline = await evaluate(signedBy(key), context, { online: true, offline: true });
    assert.equal(reasonOf(offline), "um:reason:key:offline");
  });

  it("pinned keys come first: no fetch", async () => {
    served(didDocumentOf(host.did, newKey()));
    const spki = signedBy(key).signature.publicKeySpkiB64!;
    const r = await evaluate(signedBy(key), context, { ...online(), keys: { [`${host.did}#key-1`]: spki } });
    assert.deepEqual([r.outcome, r.keyRefResolution, r.keyRefResolvedBy], ["accepted", "resolved", "keys"]);
    assert.equal(host.requests.length, 0);
  });

  it("a method this evaluator does not resolve: unresolved, with a warning naming it", async () => {
    const r = await evaluate(signedBy(key, "urn:did-web:ion", "did:ion:EiA#key-1"), context, online());
    assert.deepEqual([r.keyRefResolution, reasonOf(r)], ["unresolved", "um:reason:key:unsupported-method"]);
    assert.match(r.warnings[0]!.message, /did:ion/);
  });

  describe("the CLI", () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), "did-web-"));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const cli = (...args: string[]) => runCliInProcess(args, dir);

    it("evaluate resolves did:web by default, keeping the document in --http-cache; --offline fetches nothing", async () => {
      served(didDocumentOf(host.did, key), { "cache-control": "max-age=300" });
      const file = join(dir, "m.json");
      writeFileSync(file, JSON.stringify(signedBy(key)));
      const offline = await cli("evaluate", file, "--now", NOW, "--offline");
      assert.equal((JSON.parse(offline.stdout) as Receipt).keyRefResolutionReason, "um:reason:key:offline");
      assert.equal(host.requests.length, 0);
      const cache = join(dir, "cache");
      for (let run = 0; run < 2; run++) {
        const result = await cli("evaluate", file, "--now", NOW, "--http-cache", cache);
        assert.equal(result.status, 0, result.stderr);
        assert.equal((JSON.parse(result.stdout) as Receipt).keyRefResolution, "resolved");
      }
      assert.equal(host.requests.length, 1, "the second run reads the document from --http-cache");
    });

    it("check holds each pinned did:web keyRef to its DID document (keys/did-web-*), unless --offline", async () => {
      const content = join(dir, "content");
      const keyRef = `${host.did}#key-1`;
      const spki = signedBy(key).signature.publicKeySpkiB64!;
      mkdirSync(content, { recursive: true });
      writeFileSync(join(content, "_keys.json"), `{\n  "${keyRef}": "${spki}"\n}\n`);
      writeFileSync(join(content, "m.jsonld"), JSON.stringify(signedBy(key)));
      const check = (env: Record<string, string> = {}) =>
        runCliInProcess(["check", "--json", "--now", NOW], dir, { UM_RESOLVER_URL: "", ...env });
      const rulesOf = (stdout: string) =>
        stdout
          .trim()
          .split("\n")
          .flatMap((line) => {
            const file = JSON.parse(line) as { errors: { rule: string; line: number }[]; warnings: { rule: string }[] };
            return [...file.errors, ...file.warnings].map((p) => p.rule);
          });

      served(didDocumentOf(host.did, key));
      const holds = await check();
      assert.equal(holds.status, 0, holds.stdout + holds.stderr);
      assert.equal(host.requests.length, 1);

      served(didDocumentOf(host.did, newKey()));
      const substituted = await check();
      assert.equal(substituted.status, 1);
      assert.deepEqual(rulesOf(substituted.stdout), ["keys/did-web-mismatch"]);
      const human = await runCliInProcess(["check", "--now", NOW], dir, { UM_RESOLVER_URL: "" });
      assert.match(human.stdout, /content\/_keys\.json:2:\d+ - error keys\/did-web-mismatch/);

      served({});
      host.routes.set("/.well-known/did.json", (req) => req.socket.destroy());
      const unreachable = await check();
      assert.equal(unreachable.status, 0, unreachable.stdout);
      assert.deepEqual(rulesOf(unreachable.stdout), ["keys/did-web-unreachable"]);

      // The build publishes the document of UM_RESOLVER_URL's host from the pins: nothing to fetch.
      served(didDocumentOf(host.did, newKey()));
      const own = await check({ UM_RESOLVER_URL: `http://localhost:${host.port}` });
      assert.equal(own.status, 0, own.stdout);
      assert.equal(host.requests.length, 0);
      served(didDocumentOf(host.did, newKey()));
      const offline = await runCliInProcess(["check", "--offline", "--now", NOW], dir, { UM_RESOLVER_URL: "" });
      assert.equal(offline.status, 0);
      assert.equal(host.requests.length, 0, "check --offline uses no network");

      // A pin on a loopback address, while the resolver is not on one: a pull request cannot make CI ask it.
      const remote = await check({ UM_RESOLVER_URL: "https://resolver.example" });
      assert.equal(host.requests.length, 0, remote.stdout);
      assert.equal(remote.status, 0, remote.stdout);
      assert.deepEqual(
        rulesOf(remote.stdout).filter((rule) => rule.startsWith("keys/")),
        ["keys/did-web-unreachable"],
      );

      // --online, its default's old spelling: taken with a warning; with --offline, refused.
      served(didDocumentOf(host.did, key));
      const old = await runCliInProcess(["check", "--online", "--now", NOW], dir, { UM_RESOLVER_URL: "" });
      assert.equal(old.status, 0, old.stdout);
      assert.match(old.stderr, /^manifest-resolver: check --online is deprecated, .*--offline turns it off$/m);
      assert.equal(host.requests.length, 1);
      const both = await runCliInProcess(["check", "--online", "--offline"], dir, { UM_RESOLVER_URL: "" });
      assert.equal(both.status, 2);
      assert.match(both.stderr, /give --offline alone/);
    });

    it("check asks for the pinned DID documents once _keys.json is read, before any manifest is checked", async () => {
      const content = join(dir, "early");
      mkdirSync(content, { recursive: true });
      const spki = signedBy(key).signature.publicKeySpkiB64!;
      writeFileSync(join(content, "_keys.json"), `{ "${host.did}#key-1": "${spki}" }`);
      writeFileSync(join(content, "m.jsonld"), JSON.stringify(signedBy(key)));
      served(didDocumentOf(host.did, key));
      const asked: string[] = [];
      const fetch: Fetch = (url, init) => {
        asked.push(String(url));
        return globalThis.fetch(url, init);
      };
      const online = earlyOnlineKeys("", new Date(NOW), fetch);
      const events: string[] = [];
      const settings = settingsFromEnv({ UM_RESOLVER_URL: "" });
      const result = await checkContent(
        content,
        { settings, now: new Date(NOW), strict: false },
        {
          pinned: (pinned) => {
            events.push(`pinned ${pinned.length}`);
            online.pinned(pinned);
          },
          publish: async (manifest) => {
            events.push(`checked ${manifest.umid}`);
            return true;
          },
        },
      );
      assert.deepEqual(events, ["pinned 1", "checked urn:did-web:1"]);
      assert.deepEqual(await online.problems(result.pinned), []);
      assert.deepEqual(
        asked,
        [`http://localhost:${host.port}${DOCUMENT}`],
        "the document asked for early is the answer",
      );
      // Other pins than those asked for early are asked for anew.
      await online.problems([...result.pinned]);
      assert.equal(asked.length, 2);
    });

    it("evaluate refuses --http-cache with --offline, and takes --online with a warning", async () => {
      const result = await cli("evaluate", join(dir, "m.json"), "--offline", "--http-cache", join(dir, "c"));
      assert.equal(result.status, 2);
      assert.match(result.stderr, /--http-cache keeps DID documents: not with --offline/);
      served(didDocumentOf(host.did, key));
      const old = await cli("evaluate", join(dir, "m.json"), "--now", NOW, "--online");
      assert.equal(old.status, 0, old.stderr);
      assert.match(old.stderr, /^manifest-resolver: evaluate --online is deprecated, .*--offline turns it off$/m);
      assert.equal((JSON.parse(old.stdout) as Receipt).keyRefResolution, "resolved");
    });

    it("evaluate and resolve take --cache, the old spelling of --http-cache, with a warning", async () => {
      const result = await cli("evaluate", join(dir, "m.json"), "--offline", "--cache", join(dir, "c"));
      assert.match(result.stderr, /^manifest-resolver: evaluate --cache is deprecated, .*use --http-cache$/m);
      assert.match(result.stderr, /--http-cache keeps DID documents: not with --offline/);
      const both = await cli("resolve", "http://127.0.0.1:9", "urn:x", "--cache", "a", "--http-cache", "b");
      assert.equal(both.status, 2);
      assert.match(both.stderr, /give --http-cache alone/);
    });

    it("a substituted key fails evaluate: exit 1, rule signature/keyref-mismatch", async () => {
      served(didDocumentOf(host.did, key));
      const file = join(dir, "forged.json");
      writeFileSync(file, JSON.stringify(signedBy(newKey())));
      const result = await cli("evaluate", file, "--now", NOW);
      assert.equal(result.status, 1);
      const r = JSON.parse(result.stdout) as Receipt;
      assert.deepEqual(
        r.warnings.map((w) => w.rule),
        ["signature/keyref-mismatch"],
      );
    });
  });
});
