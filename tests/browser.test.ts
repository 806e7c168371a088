/**
 * A real browser (Debian's Chromium, driven by playwright-core): a page on one origin uses
 * the resolver on another, as a consumer's web page would; the lookup page works; and the
 * evaluator's module runs in a page as it does in Node.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, serveFixtureDid, skipWithoutChromium } from "./support/chromium.ts";
import { evaluate, type EvaluationContext, type Receipt } from "../core/evaluate/index.ts";
import { umidPath } from "../core/umid-path.ts";
import { bundleLibraries } from "../tools/build-library.ts";
import { httpMeaning } from "../lookup-page/http-meaning.ts";
import { FIXTURE_KEY_REF, manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { encodeBase58btc, rawPublicKey } from "./support/did.ts";
import { resolveDidWebKey } from "../core/did/did-web.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { sharedPath, skipWithoutShared } from "./support/shared.ts";

describe("in Chromium", { skip: skipWithoutChromium }, () => {
  const scratch = mkdtempSync(join(tmpdir(), "um-browser-"));
  const key = newKey();
  const shown = signed(manifestFor("urn:browser:shown"), key);
  const target = signed(manifestFor("urn:browser:redirect-target"), key);
  // Published, then listed as suspended, with no signature.statusRef: only the resolver's listing says so.
  const paused = signed(manifestFor("urn:browser:paused"), key);
  // One facet, consented to for one purpose.
  const consented = signed(
    manifestFor("urn:browser:consented", {
      facets: [{ "@id": "urn:browser:facet", "@type": "um:Facet", name: "profile" }],
      consents: [
        {
          "@id": "urn:browser:consent",
          "@type": "um:Consent",
          facetRef: "urn:browser:facet",
          scope: ["read"],
          purpose: "display",
          grantedAt: "2026-01-01T00:00:00Z",
          expiresAt: "2099-01-01T00:00:00Z",
        },
      ],
    }),
    key,
  );
  let resolver: Started;
  /** The lookup page's origin: 127.0.0.1 and a port of its own. */
  let ui: string;
  let browser: Browser;
  let page: Page;
  let fake: Server;
  let fakeUrl: string;
  /** The resolver as the page's script sees it: another origin (localhost, not 127.0.0.1). */
  let origin: string;
  /** A did:web keyRef on the resolver's host, pinned: the resolver serves its DID document. */
  let ownKeyRef: string;

  before(async () => {
    // A resolver that serves a manifest altered after signing: only the page can notice.
    const tampered = JSON.stringify({ ...shown, subject: "did:web:mallory.example" });
    // And one "signed" by the identity point (R = identity, S = 0), which verifies anything under a lax verifier.
    const identity = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]);
    const forged = JSON.stringify({
      ...manifestFor("urn:browser:forged"),
      signature: {
        algorithm: "Ed25519",
        canonicalization: "JCS-RFC8785",
        keyRef: "did:web:forger.example#k",
        publicKeySpkiB64: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), identity]).toString("base64"),
        value: Buffer.concat([identity, Buffer.alloc(32)]).toString("base64url"),
      },
    });
    // A manifest past its expiresAt, which a build refuses to publish, and the target of a redirect to this other
    // origin.
    const expired = JSON.stringify(
      signed(manifestFor("urn:browser:expired", { expiresAt: "2026-02-01T00:00:00Z" }), key),
    );
    const elsewhere = JSON.stringify(signed(manifestFor("urn:browser:elsewhere"), key));
    fake = createServer((req, res) => {
      // A target that does not allow other origins to read it (no Access-Control-Allow-Origin).
      if (req.url?.includes("no-cors"))
        return res.writeHead(200, { "Content-Type": "application/ld+json" }).end(elsewhere);
      const body = req.url?.includes("forged")
        ? forged
        : req.url?.includes("expired")
          ? expired
          : req.url?.includes("elsewhere")
            ? elsewhere
            : tampered;
      res.writeHead(200, { "Access-Control-Allow-Origin": "*", "Content-Type": "application/ld+json" }).end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakeUrl = `http://localhost:${(fake.address() as { port: number }).port}`;

    const port = await freePort();
    origin = `http://localhost:${port}`;
    mkdirSync(join(scratch, "content"));
    writeFileSync(join(scratch, "content/shown.json"), JSON.stringify(shown));
    writeFileSync(join(scratch, "content/target.json"), JSON.stringify(target));
    writeFileSync(join(scratch, "content/paused.json"), JSON.stringify(paused));
    writeFileSync(join(scratch, "content/consented.json"), JSON.stringify(consented));
    // Signed under a did:web of the resolver's own host: the build publishes its DID document from _keys.json.
    ownKeyRef = `did:web:localhost%3A${port}#key-1`;
    const ownKey = manifestFor("urn:browser:own-key");
    const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
    writeFileSync(
      join(scratch, "content/own-key.json"),
      JSON.stringify({ ...ownKey, signature: signProfileA(ownKey, key, ownKeyRef, new Date("2026-01-01T00:00:00Z")) }),
    );
    writeFileSync(join(scratch, "content/_keys.json"), JSON.stringify({ [FIXTURE_KEY_REF]: spki, [ownKeyRef]: spki }));
    const redirects = [
      { umid: "urn:browser:moved", location: origin + umidPath("urn:browser:redirect-target") },
      { umid: "urn:browser:elsewhere", location: fakeUrl + umidPath("urn:browser:elsewhere") },
      { umid: "urn:browser:unreadable", location: `${fakeUrl}/no-cors` },
    ];
    writeFileSync(
      join(scratch, "content/_routes.json"),
      JSON.stringify({
        redirects,
        revoked: [{ umid: "urn:browser:gone" }],
        suspended: [{ umid: "urn:browser:paused", suspendedAt: "2026-02-01T00:00:00Z", reason: "under review" }],
      }),
    );
    const build = spawnSync(
      process.execPath,
      [
        CLI,
        "build",
        "--content",
        join(scratch, "content"),
        "--out",
        join(scratch, "dist"),
        "--lookup-out",
        join(scratch, "lookup"),
      ],
      { encoding: "utf8", env: { ...process.env, UM_RESOLVER_URL: origin } },
    );
    assert.equal(build.status, 0, build.stderr);
    resolver = await startPrintingUrl(
      process.execPath,
      [CLI, "serve", "--dist", join(scratch, "dist"), "--port", String(port), "--ui-port", "0"],
      process.env,
      2,
    );
    ui = resolver.urls[1]!;
    browser = await launchChromium();
    page = await browser.newPage();
    await serveFixtureDid(page, key);
  });
  after(async () => {
    await browser?.close();
    await resolver?.stop();
    fake?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** fetch() run by a page of another origin than the resolver. */
  function pageFetch(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
    return page.evaluate(
      async ({ url, method, headers }) => {
        // Runs in Chromium, whose fetch honours `cache` (Node's type for RequestInit lacks it).
        const options = { method, headers, cache: "no-store" };
        const r = await fetch(url, options as RequestInit);
        return {
          status: r.status,
          redirected: r.redirected,
          url: r.url,
          text: await r.text(),
          etag: r.headers.get("ETag"),
          contract: r.headers.get("X-UM-Resolver-Contract"),
        };
      },
      { url: origin + path, method: init.method ?? "GET", headers: init.headers ?? {} },
    );
  }

  it("reads a 200: status, body, ETag and contract header, across origins", async () => {
    await page.goto(`${ui}/`);
    const r = await pageFetch(umidPath("urn:browser:shown"));
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.text)["@id"], "urn:browser:shown");
    assert.match(r.etag!, /^W\/"sha256-[\w-]{43}"$/);
    assert.equal(r.contract, "manifest-resolver/v0.1");
  });
  it("revalidates with If-None-Match: the preflight passes and the 304 is readable", async () => {
    const { etag } = await pageFetch(umidPath("urn:browser:shown"));
    const r = await pageFetch(umidPath("urn:browser:shown"), { headers: { "If-None-Match": etag! } });
    assert.equal(r.status, 304);
    assert.equal(r.etag, etag);
    assert.equal(r.text, "");
  });
  it("reads the bodies of 404 and 410", async () => {
    assert.deepEqual(JSON.parse((await pageFetch(umidPath("urn:browser:nobody"))).text), {
      error: "not_found",
      umid: "urn:browser:nobody",
    });
    const gone = await pageFetch(umidPath("urn:browser:gone"));
    assert.equal(gone.status, 410);
    assert.deepEqual(JSON.parse(gone.text), { error: "revoked", umid: "urn:browser:gone" });
  });
  it("HEAD gives the status and ETag without a body", async () => {
    const r = await pageFetch(umidPath("urn:browser:shown"), { method: "HEAD" });
    assert.equal(r.status, 200);
    assert.match(r.etag!, /^W\/"sha256-/);
    assert.equal(r.text, "");
  });
  it("follows a redirect to its target", async () => {
    const r = await pageFetch(umidPath("urn:browser:moved"));
    assert.equal(r.redirected, true);
    assert.equal(r.url, origin + umidPath("urn:browser:redirect-target"));
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.text)["@id"], "urn:browser:redirect-target");
  });
  /**
   * What the lookup page shows, read from its structure, not its words: the verdict's tone
   * (ok, warn, bad) and reasons, the request URL, a line per exchange on the wire, the
   * manifest's answer (status line, headers, what it means, its body as JSON) and the receipt.
   * The words themselves are the verdict's and the exchanges' (tests/unit/lookup-verdict.test.ts).
   */
  interface Shown {
    verdictFirst: boolean;
    tone: string;
    reasons: string[];
    request: string;
    happened: string[];
    answer?: { status: string; headers: Record<string, string>; meaning?: string; body?: Record<string, unknown> };
    receipt?: Receipt;
  }
  async function readResult(on: Page): Promise<Shown> {
    const result = on.locator("#result");
    const verdict = result.locator(".verdict");
    const region = async (name: string) => {
      const found = result.getByRole("region", { name, exact: true });
      return (await found.count()) === 0 ? undefined : JSON.parse(await found.innerText());
    };
    const heading = (await result.locator("> h2").allInnerTexts()).find((text) => text.startsWith("The answer: "));
    const terms = await result.locator("dl > dt").allInnerTexts();
    const values = await result.locator("dl > dd").allInnerTexts();
    const meaning = await result.locator("dl + p").allInnerTexts();
    const receipt = await region("Receipt");
    return {
      verdictFirst: (await result.locator("> :first-child.verdict").count()) === 1,
      tone: (await verdict.getAttribute("class"))!.replace(/^verdict /, ""),
      reasons: await verdict.locator("li").allInnerTexts(),
      request: await result.locator("code").first().innerText(),
      happened: await result.locator("> ul > li").allInnerTexts(),
      ...(heading !== undefined && {
        answer: {
          status: heading.slice("The answer: ".length),
          headers: Object.fromEntries(terms.map((term, i) => [term, values[i]!])),
          ...(meaning[0] !== undefined && { meaning: meaning[0] }),
          body: (await region("Manifest")) ?? (await region("Response body")),
        },
      }),
      ...(receipt !== undefined && { receipt }),
    };
  }
  /** The lookup page opened with a shared link, once its result is in. */
  async function lookUp(resolverUrl: string, umid: string, on: Page = page): Promise<Shown> {
    await on.goto(`${ui}/?${new URLSearchParams({ resolver: resolverUrl, umid })}`);
    await on.locator("#result .verdict").waitFor();
    return readResult(on);
  }
  /** Asserts that `text` names each of `named`: URLs, statuses, times, UMIDs. */
  const assertNames = (text: string | undefined, ...named: string[]) => {
    for (const value of named) assert.ok(text?.includes(value), `${value} in ${text}`);
  };

  it(
    "the lookup page, on its own origin, gives a manifest's verdict first, then the " + "answer and the receipt",
    async () => {
      await page.goto(`${ui}/?resolver=${encodeURIComponent(origin)}`);
      // Pasted with blanks around it: trimmed.
      await page.fill("#umid", "  urn:browser:shown\t ");
      await page.click("button[type=submit]");
      await page.locator("#result .verdict").waitFor();
      const result = await readResult(page);
      assert.deepEqual([result.verdictFirst, result.tone], [true, "ok"]);
      // Usable: a receipt without warnings, whose key the signer's DID document confirms.
      assert.deepEqual(result.reasons.slice(1), [
        "its key is confirmed by its signer's DID document, https://fixture.example/.well-known/did.json",
      ]);
      assert.equal(await page.inputValue("#umid"), "urn:browser:shown");
      assert.equal(result.request, `${origin}/urn%3Abrowser%3Ashown`);
      assert.equal(result.answer?.status, "200 OK");
      assert.equal(result.answer?.headers["X-UM-Resolver-Contract"], "manifest-resolver/v0.1");
      assert.equal(result.answer?.body?.["@id"], "urn:browser:shown");
      const r = result.receipt!;
      assert.deepEqual(
        [r.outcome, r.signatureCheck, r.freshnessCheck, r.keyRefResolution],
        ["accepted", "valid", "fresh", "resolved"],
      );
      assert.equal(new URL(page.url()).searchParams.get("umid"), "urn:browser:shown");
    },
  );
  it("the resolver publishes its own did:web document, which a did:web resolver accepts, and the page confirms the key", async () => {
    const published = await resolveDidWebKey(ownKeyRef, {
      transport: { fetch: (url, init) => fetch(url, init), timeoutMs: 5_000 },
      cache: undefined,
      now: Date.now(),
    });
    const documentUrl = `${origin}/.well-known/did.json`;
    assert.ok("publicKey" in published, JSON.stringify(published));
    assert.deepEqual(
      [Buffer.from(published.publicKey), published.documentUrl],
      [Buffer.from(rawPublicKey(key)), documentUrl],
    );
    const result = await lookUp(origin, "urn:browser:own-key");
    assert.equal(result.tone, "ok", result.reasons.join("\n"));
    assert.deepEqual(result.reasons.slice(1), [`its key is confirmed by its signer's DID document, ${documentUrl}`]);
    assert.deepEqual([result.receipt?.keyRefResolution, result.receipt?.keyRefResolvedBy], ["resolved", documentUrl]);
    assert.ok(
      result.happened.some((line) => line.startsWith(`GET ${documentUrl}: 200`)),
      result.happened.join("\n"),
    );
  });
  it("the lookup page says an expired manifest must not be used, though it came with 200 OK", async () => {
    const result = await lookUp(fakeUrl, "urn:browser:expired");
    assert.deepEqual(
      [result.tone, result.receipt?.outcome, result.receipt?.freshnessCheck],
      ["bad", "rejected", "expired"],
    );
    // The first reason: the receipt's warning, at its pointer, naming when it expired.
    assertNames(result.reasons[0], "/expiresAt", "2026-02-01T00:00:00Z");
    assert.equal(result.answer?.status, "200 OK");
  });
  it(
    "the lookup page asks the resolver's status listing when the manifest has no " +
      "statusRef, and warns of a suspension",
    async () => {
      assert.equal((paused.signature as Record<string, unknown>).statusRef, undefined);
      const result = await lookUp(origin, "urn:browser:paused");
      // Accepted by the evaluator, which checked no status; the listing makes it usable with warnings.
      assert.deepEqual(
        [result.tone, result.receipt?.outcome, result.receipt?.revocationStatus],
        ["warn", "accepted", "unchecked"],
      );
      assertNames(result.reasons[0], " suspended ", "2026-02-01T00:00:00", "under review");
    },
  );
  it("the lookup page shows a redirect to another origin as a redirect, and the verdict where it ended", async () => {
    const result = await lookUp(origin, "urn:browser:elsewhere");
    assert.deepEqual([result.tone, result.receipt?.outcome], ["ok", "accepted"]);
    // Three exchanges: the resolver's opaque redirect, the target the browser followed it to, the signer's DID document.
    assert.equal(result.happened.length, 3, result.happened.join("\n"));
    assert.ok(result.happened[2]!.startsWith("GET https://fixture.example/.well-known/did.json: 200"));
    assert.ok(result.happened[0]!.startsWith(`GET ${origin}/urn%3Abrowser%3Aelsewhere: `), result.happened[0]);
    assert.ok(!result.happened[0]!.includes("200"), result.happened[0]);
    assertNames(
      result.happened[1],
      `GET ${origin}/urn%3Abrowser%3Aelsewhere: `,
      `${fakeUrl}/urn%3Abrowser%3Aelsewhere`,
      "200 OK",
    );
    assert.equal(result.answer?.body?.["@id"], "urn:browser:elsewhere");
  });
  it("the lookup page says plainly when a redirect's target cannot be read cross-origin", async () => {
    const result = await lookUp(origin, "urn:browser:unreadable");
    // Nothing resolved, so no receipt, and no answer to show.
    assert.deepEqual([result.tone, result.receipt, result.answer], ["bad", undefined, undefined]);
    // Why, in the page's own words: nothing but its words tells this reason from the client's.
    assert.deepEqual(result.reasons, [
      "the resolver redirected this UMID to another site, which this page cannot read; " +
        "open the request URL in the browser",
    ]);
    // The exchange that failed, following the redirect, names the browser's error.
    assert.equal(result.happened.length, 2, result.happened.join("\n"));
    assertNames(result.happened[1], `GET ${origin}/urn%3Abrowser%3Aunreadable`, "(Failed to fetch)");
  });
  it("the lookup page explains a 400, a 404 and a 410 beside their JSON", async () => {
    // A resolver URL with a path of its own: the UMID becomes a second path segment.
    const bad = await lookUp(`${origin}/extra`, "urn:browser:shown");
    assert.deepEqual([bad.tone, bad.receipt], ["bad", undefined]);
    assertNames(bad.reasons[0], `${origin}/extra/urn%3Abrowser%3Ashown`, "400");
    const { headers: _, ...answered } = bad.answer!;
    // What it means, as the page words it beside the body (http-meaning.ts), and the body, the contract's.
    assert.deepEqual(answered, {
      status: "400 Bad Request",
      meaning: httpMeaning(400),
      body: { error: "bad_request", message: "unexpected extra path segments" },
    });
    const missing = await lookUp(origin, "urn:browser:nobody");
    assert.deepEqual([missing.tone, missing.receipt], ["bad", undefined]);
    assertNames(missing.reasons[0], '"urn:browser:nobody"', `${origin}/urn%3Abrowser%3Anobody`, "404");
    assert.deepEqual(
      [missing.answer?.status, missing.answer?.meaning, missing.answer?.body?.error],
      ["404 Not Found", httpMeaning(404), "not_found"],
    );
    const gone = await lookUp(origin, "urn:browser:gone");
    assert.deepEqual(
      [gone.tone, gone.receipt?.outcome, gone.receipt?.revocationStatus],
      ["bad", "rejected", "revoked"],
    );
    assertNames(gone.reasons[0], "410", '"urn:browser:gone"');
    assert.deepEqual(
      [gone.answer?.status, gone.answer?.meaning, gone.answer?.body?.error],
      ["410 Gone", httpMeaning(410), "revoked"],
    );
  });
  it("the lookup page follows a redirect to another UMID's manifest, and rejects it as the client does", async () => {
    const result = await lookUp(origin, "urn:browser:moved");
    const target = `${origin}/urn%3Abrowser%3Aredirect-target`;
    assert.deepEqual(
      [result.tone, result.receipt?.outcome, result.receipt?.warnings.map((w) => w.rule)],
      ["bad", "rejected", ["resolve/umid-mismatch"]],
    );
    // Its @id, and the UMID asked for; and where it ended.
    assertNames(result.reasons[0], '"urn:browser:redirect-target"', '"urn:browser:moved"');
    assertNames(result.happened.at(-1), target, "200 OK");
  });
  it("core §3.1.4: the lookup page takes the purpose, and without one says the purpose is unverified", async () => {
    const without = await lookUp(origin, "urn:browser:consented");
    assert.deepEqual(
      [without.tone, without.receipt?.warnings.map((w) => w.code)],
      ["warn", ["um:reason:consent:purpose-unverified"]],
    );
    await page.goto(
      `${ui}/?${new URLSearchParams({ resolver: origin, umid: "urn:browser:consented", purpose: "display" })}`,
    );
    await page.locator("#result .verdict").waitFor();
    const given = await readResult(page);
    assert.deepEqual([given.tone, given.receipt?.outcome, given.receipt?.warnings], ["ok", "accepted", []]);
    assert.equal(await page.inputValue("#purpose"), "display");
  });
  it("the lookup page notices a manifest altered after signing", async () => {
    const result = await lookUp(fakeUrl, "urn:browser:shown");
    assert.deepEqual(
      [result.tone, result.receipt?.signatureCheck, result.receipt?.warnings.map((w) => w.rule)],
      ["bad", "invalid", ["signature/invalid"]],
    );
    assertNames(result.reasons[0], "/signature/value");
  });
  it("the lookup page refuses a signature by a small-order key, as the build does", async () => {
    // Its keyRef's DID document lists that very key (the identity point), so the keyRef resolves: refused all the same.
    const did = "did:web:forger.example";
    const identity = Uint8Array.from([1, ...new Array(31).fill(0)]);
    const method = {
      id: `${did}#k`,
      type: "Multikey",
      controller: did,
      publicKeyMultibase: `z${encodeBase58btc(Uint8Array.from([0xed, 0x01, ...identity]))}`,
    };
    await page.route("https://forger.example/.well-known/did.json", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/did+json",
        headers: { "access-control-allow-origin": "*" },
        body: JSON.stringify({ id: did, verificationMethod: [method], assertionMethod: [method.id] }),
      }),
    );
    const result = await lookUp(fakeUrl, "urn:browser:forged");
    assert.deepEqual(
      [
        result.tone,
        result.receipt?.signatureCheck,
        result.receipt?.keyRefResolution,
        result.receipt?.warnings.map((w) => w.rule),
      ],
      ["bad", "invalid", "resolved", ["signature/weak-key"]],
    );
  });
  it("a link with the resolver and UMID in its hash works, and Copy copies the request URL", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ui });
    const shared = await context.newPage();
    await serveFixtureDid(shared, key);
    await shared.goto(`${ui}/#${new URLSearchParams({ resolver: origin, umid: "urn:browser:shown" })}`);
    await shared.locator("#result .verdict").waitFor();
    const result = await readResult(shared);
    assert.deepEqual([result.tone, result.receipt?.outcome], ["ok", "accepted"]);
    await shared.getByRole("button", { name: "Copy the request URL" }).click();
    await shared.getByText("Copied").waitFor();
    // A string, run in the page: this file is type-checked without the DOM library.
    assert.equal(await shared.evaluate("navigator.clipboard.readText()"), `${origin}/urn%3Abrowser%3Ashown`);
    await context.close();
  });
});

/**
 * The evaluator's modules, bundled as `manifest-resolver/evaluate` ships them, run in
 * the page: the receipts Chromium's WebCrypto gives equal the ones Node gives, for every
 * entry of the v0.4 suite and for manifests made here.
 */
describe("the evaluator in Chromium", { skip: skipWithoutChromium }, () => {
  const key = newKey();
  let server: Server;
  let browser: Browser;
  let page: Page;

  before(async () => {
    // The library and its chunks, at their paths in the package (lib/…), which its imports name.
    const files = new Map((await bundleLibraries(["evaluate"], false)).files.map((f) => [`/${f.path}`, f.bytes]));
    server = createServer((request, response) => {
      const file = files.get(request.url ?? "");
      if (file !== undefined) response.writeHead(200, { "Content-Type": "text/javascript" }).end(file);
      else response.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>evaluator</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /**
   * Receipts from the bundle in the page, for [text, context] pairs; offline there and in Node, so that they compare
   * the evaluators, not what each could reach (the fixtures' did:web host is none).
   */
  const inPage = (cases: [string, EvaluationContext][]) =>
    page.evaluate(async (cases) => {
      const { evaluate } = await import("/lib/evaluate.js" as string);
      return Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true })));
    }, cases) as Promise<Receipt[]>;

  it("gives the receipts Node gives for manifests made here: accepted, forged, expired", async () => {
    const good = JSON.stringify(signed(manifestFor("urn:browser:evaluated"), key));
    const forged = good.replace("did:web:fixture.example", "did:web:mallory.example");
    const cases: [string, EvaluationContext][] = [
      [good, { now: "2026-06-01T00:00:00Z" }],
      [forged, { now: "2026-06-01T00:00:00Z" }],
      [good, { now: "2031-01-01T00:00:00Z", omitProcessedAt: true }],
    ];
    const receipts = await inPage(cases);
    assert.deepEqual(
      receipts.map((r) => [r.outcome, r.signatureCheck, r.freshnessCheck]),
      [
        ["accepted", "valid", "fresh"],
        ["rejected", "invalid", "not-evaluated"],
        ["rejected", "valid", "expired"],
      ],
    );
    assert.deepEqual(
      receipts,
      await Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true }))),
    );
  });

  it("gives the same receipts with the pure-JS fallback, which it loads only where WebCrypto lacks Ed25519", async () => {
    const good = JSON.stringify(signed(manifestFor("urn:browser:fallback"), key));
    const cases: [string, EvaluationContext][] = [
      [good, { now: "2026-06-01T00:00:00Z", omitProcessedAt: true }],
      [good.replace("did:web:fixture.example", "did:web:mallory.example"), { now: "2026-06-01T00:00:00Z" }],
    ];
    const expected = await Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true })));
    // Chromium has Ed25519: the page that verified with it never downloaded the fallback.
    assert.deepEqual(await inPage(cases), expected);
    const loaded = (await page.evaluate(
      "performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)",
    )) as string[];
    assert.ok(loaded.includes("/lib/evaluate.js") && !loaded.includes("/lib/pure-crypto.js"), loaded.join(", "));
    const older = await browser.newPage();
    try {
      // An older browser's WebCrypto: it imports no Ed25519 key (a string, run in the page: no DOM types here).
      await older.addInitScript(`{
        const importKey = crypto.subtle.importKey.bind(crypto.subtle);
        crypto.subtle.importKey = (format, key, algorithm, ...rest) =>
          (algorithm?.name ?? algorithm) === "Ed25519"
            ? Promise.reject(new DOMException("Unrecognized name.", "NotSupportedError"))
            : importKey(format, key, algorithm, ...rest);
      }`);
      const requested: string[] = [];
      older.on("request", (request) => requested.push(new URL(request.url()).pathname));
      await older.goto(page.url());
      const receipts = (await older.evaluate(async (cases) => {
        const { evaluate } = await import("/lib/evaluate.js" as string);
        return Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true })));
      }, cases)) as Receipt[];
      assert.deepEqual(receipts, expected);
      assert.ok(requested.includes("/lib/pure-crypto.js"), requested.join(", "));
    } finally {
      await older.close();
    }
  });

  const suiteSkip = skipWithoutShared("peer/universal-manifest-v0.4/expected.json");
  it("gives the receipts Node gives for every present entry of the v0.4 suite", { skip: suiteSkip }, async () => {
    const suite = "peer/universal-manifest-v0.4";
    const entries = (
      JSON.parse(readFileSync(sharedPath(`${suite}/expected.json`), "utf8")).fixtures as {
        filename: string;
        evaluationContext?: EvaluationContext;
      }[]
    ).filter((e) => existsSync(sharedPath(`${suite}/${e.filename}`)));
    const cases = entries.map((e): [string, EvaluationContext] => [
      readFileSync(sharedPath(`${suite}/${e.filename}`), "utf8"),
      e.evaluationContext ?? { now: "2026-06-01T00:01:00Z", omitProcessedAt: true },
    ]);
    assert.ok(cases.length >= 59, `${cases.length} entries`);
    assert.deepEqual(
      await inPage(cases),
      await Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true }))),
    );
  });
});
