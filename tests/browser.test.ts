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
import { servedAt, startPrintingUrl, type Started } from "./support/processes.ts";
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
    ui = servedAt(resolver).page.slice(0, -1);
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
  it("opens the resolver's own address as a page: no console message, and a link to the lookup page", async () => {
    const messages: string[] = [];
    const tab = await browser.newPage();
    tab.on("console", (message) => messages.push(message.text()));
    try {
      const response = await tab.goto(`${servedAt(resolver).resolver}/`);
      assert.equal(response?.status(), 200);
      assert.equal(await tab.locator("h1").textContent(), "Universal Manifest resolver");
      await tab.getByRole("link", { name: "the lookup page" }).click();
      await tab.waitForURL(`${ui}/`);
      // Neither page's policy blocked anything (a blocked load is a console error in Chromium).
      assert.deepEqual(messages, []);
    } finally {
      await tab.close();
    }
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
   * What the lookup page shows, read from its structure (page-contract, issue 40), not its words: the verdict's
   * outcome and tone, its reasons, the checklist in its order, the summary card, a line per request made, the
   * redirect's link, the resolver's answer (status line, headers, what it means, its body as JSON) and the receipt.
   * The words themselves are the verdict's and the checklist's (tests/unit/lookup-verdict.test.ts).
   */
  interface Shown {
    /** Whether the verdict heading is in the result's first block. */
    verdictFirst: boolean;
    outcome: string;
    tone: string;
    headline: string;
    reasons: string[];
    /** The check whose sentence is the first reason, the one a screen reader hears; undefined when none is. */
    cause?: string;
    /** Each check of the checklist, in its order: [data-check, data-result]. */
    checks: [string, string][];
    /** The summary card: data-field → its value. */
    summary: Record<string, string>;
    exchanges: { kind: string; text: string }[];
    /** The href of the redirect's link, when there is one. */
    redirectTarget?: string;
    answer?: { status: string; headers: Record<string, string>; meaning?: string; body?: Record<string, unknown> };
    receipt?: Receipt;
    announcement: string;
  }
  /** Every check passed, but `changed` ([data-check, data-result] each). */
  const checksWith = (...changed: [string, string][]): [string, string][] =>
    ["signature", "key", "fresh", "status", "logged", "tier"].map((id) => [
      id,
      changed.find(([check]) => check === id)?.[1] ?? "pass",
    ]);
  /** No log key, no log read: that check is skipped on every lookup here. */
  const unlogged: [string, string] = ["logged", "skip"];

  async function readResult(on: Page): Promise<Shown> {
    const result = on.locator("#result");
    const verdict = result.locator("#verdict");
    // The blocks behind toggles are collapsed: read as text, not as rendered.
    const texts = (selector: string) => result.locator(selector).allTextContents();
    const attributes = (selector: string, ...names: string[]) =>
      result
        .locator(selector)
        .evaluateAll((nodes, names) => nodes.map((node) => names.map((name) => node.getAttribute(name) ?? "")), names);
    const json = async (selector: string) => {
      const found = result.locator(selector);
      return (await found.count()) === 0 ? undefined : JSON.parse((await found.textContent())!);
    };
    const reasons = await texts("#reasons > li");
    const checks = (await attributes("#checklist > li", "data-check", "data-result")) as [string, string][];
    const labels = await texts("#checklist > li > strong");
    const cause = checks.find((_, i) => reasons[0]?.startsWith(`${labels[i]!.split(": ")[0]}: `))?.[0];
    const fields = await attributes("#summary > dd", "data-field");
    const values = await texts("#summary > dd");
    const kinds = await attributes("#exchanges > li", "data-kind");
    const lines = await texts("#exchanges > li");
    const redirect = result.locator("p.redirect > a#redirect-target");
    const answered = (await result.locator("details#answer").count()) === 1;
    const meaning = await texts("#answer > dl + p");
    const terms = await texts("#answer > dl > dt");
    const headerValues = await texts("#answer > dl > dd");
    const receipt = await json("details#receipt-block > pre#receipt");
    return {
      verdictFirst: (await result.locator("> :first-child #verdict").count()) === 1,
      outcome: (await verdict.getAttribute("data-outcome"))!,
      tone: (await verdict.getAttribute("data-tone"))!,
      headline: await verdict.innerText(),
      reasons,
      ...(cause !== undefined && { cause }),
      checks,
      summary: Object.fromEntries(fields.map(([field], i) => [field, values[i]!])),
      exchanges: kinds.map(([kind], i) => ({ kind: kind!, text: lines[i]! })),
      ...((await redirect.count()) === 1 && { redirectTarget: (await redirect.getAttribute("href"))! }),
      ...(answered && {
        answer: {
          status: (await result.locator("#answer > summary").textContent())!.split(": ").at(-1)!,
          headers: Object.fromEntries(terms.map((term, i) => [term, headerValues[i]!])),
          ...(meaning[0] !== undefined && { meaning: meaning[0] }),
          body: await json("#answer > pre"),
        },
      }),
      ...(receipt !== undefined && { receipt }),
      announcement: (await on.locator("#announcement").textContent())!,
    };
  }
  /** The lookup page opened with a shared link, once its result is in. */
  async function lookUp(resolverUrl: string, umid: string, on: Page = page): Promise<Shown> {
    await on.goto(`${ui}/?${new URLSearchParams({ resolver: resolverUrl, umid })}`);
    await on.locator("#result #verdict").waitFor();
    return readResult(on);
  }
  /** Asserts that `text` names each of `named`: URLs, statuses, times, UMIDs. */
  const assertNames = (text: string | undefined, ...named: string[]) => {
    for (const value of named) assert.ok(text?.includes(value), `${value} in ${text}`);
  };
  /** The text of the one exchange of `kind`. */
  const exchangeOf = (shown: Shown, kind: string) => {
    const found = shown.exchanges.filter((e) => e.kind === kind);
    assert.equal(found.length, 1, JSON.stringify(shown.exchanges));
    return found[0]!.text;
  };
  /** The resolver's own status endpoint for `umid`, which the client asks for a manifest that names no statusRef. */
  const statusUrl = (umid: string) => `${origin}/.well-known/manifest-resolver/status${umidPath(umid)}`;

  it(
    "the lookup page, on its own origin, gives a manifest's verdict first, then the " + "answer and the receipt",
    async () => {
      await page.goto(`${ui}/?resolver=${encodeURIComponent(origin)}`);
      // Pasted with blanks around it: trimmed.
      await page.fill("#umid", "  urn:browser:shown\t ");
      await page.click("#look-up");
      await page.locator("#result #verdict").waitFor();
      const result = await readResult(page);
      assert.deepEqual([result.verdictFirst, result.outcome, result.tone], [true, "accepted", "ok"]);
      // Usable: every check passed, the key confirmed by the signer's DID document, the status active.
      assert.deepEqual(result.checks, checksWith(unlogged));
      assert.equal(result.announcement, `${result.headline}: ${result.reasons[0]}`);
      assert.equal(await page.inputValue("#umid"), "urn:browser:shown");
      assert.deepEqual(
        [result.summary.umid, result.summary.signer, result.summary.status],
        ["urn:browser:shown", "did:web:fixture.example", "active"],
      );
      // Every request made: the manifest, the signer's DID document, and the status the resolver lists.
      assert.ok(exchangeOf(result, "manifest").startsWith(`GET ${origin}/urn%3Abrowser%3Ashown: 200`));
      assertNames(exchangeOf(result, "status"), statusUrl("urn:browser:shown"), "200");
      assertNames(exchangeOf(result, "did"), "https://fixture.example/.well-known/did.json", "200");
      assert.equal(result.redirectTarget, undefined);
      assert.equal(result.answer?.status, "200 OK");
      assert.equal(result.answer?.headers["X-UM-Resolver-Contract"], "manifest-resolver/v0.1");
      assert.equal(result.answer?.body?.["@id"], "urn:browser:shown");
      const r = result.receipt!;
      assert.deepEqual(
        [r.outcome, r.signatureCheck, r.freshnessCheck, r.keyRefResolution, r.keyRefResolvedBy, r.revocationStatus],
        ["accepted", "valid", "fresh", "resolved", "https://fixture.example/.well-known/did.json", "active"],
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
    assert.deepEqual([result.outcome, result.tone], ["accepted", "ok"], result.reasons.join("\n"));
    assert.deepEqual(result.checks, checksWith(unlogged));
    assert.deepEqual([result.receipt?.keyRefResolution, result.receipt?.keyRefResolvedBy], ["resolved", documentUrl]);
    assert.ok(exchangeOf(result, "did").startsWith(`GET ${documentUrl}: 200`), exchangeOf(result, "did"));
  });
  it("the lookup page says an expired manifest must not be used, though it came with 200 OK", async () => {
    const result = await lookUp(fakeUrl, "urn:browser:expired");
    assert.deepEqual(
      [result.outcome, result.tone, result.receipt?.outcome, result.receipt?.freshnessCheck],
      ["rejected", "bad", "rejected", "expired"],
    );
    // This resolver's status endpoint answers with no status document: the status is not known.
    assert.deepEqual(result.checks, checksWith(["fresh", "fail"], ["status", "skip"], unlogged));
    // The first reason is the expiry, naming when.
    assert.equal(result.cause, "fresh");
    assertNames(result.reasons[0], "2026-02-01");
    assertNames(result.summary.expires, "2026-02-01");
    assert.equal(result.answer?.status, "200 OK");
  });
  it(
    "the lookup page warns of a suspension the resolver lists for a manifest with no statusRef, " +
      "and its receipt says so",
    async () => {
      assert.equal((paused.signature as Record<string, unknown>).statusRef, undefined);
      const result = await lookUp(origin, "urn:browser:paused");
      // The client asked the resolver's status endpoint: the receipt, the headline and the checklist agree.
      assert.deepEqual(
        [result.outcome, result.tone, result.receipt?.outcome, result.receipt?.revocationStatus],
        ["accepted-with-warnings", "warn", "accepted-with-warnings", "suspended"],
      );
      assert.deepEqual(result.checks, checksWith(["status", "warn"], unlogged));
      assert.equal(result.cause, "status");
      // Since when, and why: in the status check, and in the reason a screen reader hears.
      const status = result.checks.findIndex(([id]) => id === "status");
      const statusLine = (await page.locator("#checklist > li").nth(status).textContent())!;
      for (const said of [statusLine, result.reasons[0], result.announcement])
        assertNames(said, "2026-02-01", "under review");
      assert.match(result.summary.status!, /^suspended\b/);
      assertNames(exchangeOf(result, "status"), statusUrl("urn:browser:paused"), "200");
    },
  );
  it("the lookup page shows a redirect to another origin as a redirect, and the verdict where it ended", async () => {
    const result = await lookUp(origin, "urn:browser:elsewhere");
    assert.deepEqual([result.outcome, result.tone, result.receipt?.outcome], ["accepted", "ok", "accepted"]);
    const target = `${fakeUrl}/urn%3Abrowser%3Aelsewhere`;
    assert.equal(result.redirectTarget, target);
    // The resolver's opaque redirect, the target the browser followed it to, the signer's DID document, the status.
    assert.deepEqual(
      result.exchanges.map((e) => e.kind),
      ["redirect", "manifest", "did", "status"],
      JSON.stringify(result.exchanges),
    );
    const [redirect, followed] = result.exchanges.map((e) => e.text);
    assert.ok(redirect!.startsWith(`GET ${origin}/urn%3Abrowser%3Aelsewhere: `), redirect);
    assert.ok(!redirect!.includes("200"), redirect);
    assertNames(followed, `GET ${origin}/urn%3Abrowser%3Aelsewhere: `, target, "200 OK");
    assertNames(exchangeOf(result, "did"), "GET https://fixture.example/.well-known/did.json: 200");
    assert.equal(result.answer?.body?.["@id"], "urn:browser:elsewhere");
  });
  it("the lookup page says plainly when a redirect's target cannot be read cross-origin", async () => {
    const result = await lookUp(origin, "urn:browser:unreadable");
    // Nothing resolved, so no receipt, and no answer to show; a redirect in its own colour, not a fault.
    assert.deepEqual(
      [result.outcome, result.tone, result.receipt, result.answer],
      ["unresolved", "redirect", undefined, undefined],
    );
    assert.equal(await page.locator("#copy-receipt").count(), 0);
    assert.deepEqual(
      result.checks,
      result.checks.map(([id]) => [id, "skip"]),
    );
    // The link a tab follows where this page cannot: the request, whose redirect the browser hides from the page.
    assert.equal(result.redirectTarget, `${origin}/urn%3Abrowser%3Aunreadable`);
    assert.equal(result.reasons.length, 1, result.reasons.join("\n"));
    // The exchange that failed, following the redirect, names the browser's error.
    assert.deepEqual(
      result.exchanges.map((e) => e.kind),
      ["redirect", "manifest"],
    );
    assertNames(result.exchanges[1]?.text, `GET ${origin}/urn%3Abrowser%3Aunreadable`, "(Failed to fetch)");
  });
  it("the lookup page explains a 400, a 404 and a 410 beside their JSON", async () => {
    // A resolver URL with a path of its own: the UMID becomes a second path segment.
    const bad = await lookUp(`${origin}/extra`, "urn:browser:shown");
    assert.deepEqual([bad.outcome, bad.tone, bad.receipt], ["unresolved", "bad", undefined]);
    assertNames(bad.reasons[0], `${origin}/extra/urn%3Abrowser%3Ashown`, "400");
    const { headers: _, ...answered } = bad.answer!;
    // What it means, as the page words it beside the body (http-meaning.ts), and the body, the contract's.
    assert.deepEqual(answered, {
      status: "400 Bad Request",
      meaning: httpMeaning(400),
      body: { error: "bad_request", message: "unexpected extra path segments" },
    });
    const missing = await lookUp(origin, "urn:browser:nobody");
    assert.deepEqual([missing.outcome, missing.tone, missing.receipt], ["not-found", "bad", undefined]);
    assert.deepEqual(
      [missing.answer?.status, missing.answer?.meaning, missing.answer?.body?.error],
      ["404 Not Found", httpMeaning(404), "not_found"],
    );
    const gone = await lookUp(origin, "urn:browser:gone");
    assert.deepEqual(
      [gone.outcome, gone.tone, gone.receipt?.outcome, gone.receipt?.revocationStatus],
      ["rejected", "bad", "rejected", "revoked"],
    );
    // Withdrawn: nothing of the manifest came to check, but its status, revoked.
    assert.deepEqual(gone.checks, [
      ["signature", "skip"],
      ["key", "skip"],
      ["fresh", "skip"],
      ["status", "fail"],
      unlogged,
      ["tier", "skip"],
    ]);
    assert.equal(gone.cause, "status");
    assert.match(gone.summary.status!, /^revoked\b/);
    assert.deepEqual(
      [gone.answer?.status, gone.answer?.meaning, gone.answer?.body?.error],
      ["410 Gone", httpMeaning(410), "revoked"],
    );
  });
  it("the lookup page follows a redirect to another UMID's manifest, and rejects it as the client does", async () => {
    const result = await lookUp(origin, "urn:browser:moved");
    const target = `${origin}/urn%3Abrowser%3Aredirect-target`;
    assert.deepEqual(
      [result.outcome, result.tone, result.receipt?.outcome, result.receipt?.warnings.map((w) => w.rule)],
      ["rejected", "bad", "rejected", ["resolve/umid-mismatch"]],
    );
    // Its @id, and the UMID asked for; and where it ended.
    assertNames(result.reasons[0], '"urn:browser:redirect-target"', '"urn:browser:moved"');
    assert.equal(result.redirectTarget, target);
    assertNames(exchangeOf(result, "manifest"), target, "200 OK");
  });
  it("core §3.1.4: the lookup page takes the purpose, and without one says the purpose is unverified", async () => {
    const without = await lookUp(origin, "urn:browser:consented");
    assert.deepEqual(
      [without.outcome, without.tone, without.receipt?.warnings.map((w) => w.code)],
      ["accepted-with-warnings", "warn", ["um:reason:consent:purpose-unverified"]],
    );
    // Its code behind the toggle, not in the reasons.
    assert.deepEqual(await page.locator("details#reason-codes li").allTextContents(), [
      "um:reason:consent:purpose-unverified",
    ]);
    assert.equal(await page.locator("details#reason-codes").getAttribute("open"), null);
    for (const reason of without.reasons) assert.doesNotMatch(reason, /um:reason:/);
    await page.goto(
      `${ui}/?${new URLSearchParams({ resolver: origin, umid: "urn:browser:consented", purpose: "display" })}`,
    );
    await page.locator("#result #verdict").waitFor();
    const given = await readResult(page);
    assert.deepEqual(
      [given.outcome, given.tone, given.receipt?.outcome, given.receipt?.warnings],
      ["accepted", "ok", "accepted", []],
    );
    assert.equal(await page.inputValue("#purpose"), "display");
  });
  it("the lookup page notices a manifest altered after signing", async () => {
    const result = await lookUp(fakeUrl, "urn:browser:shown");
    assert.deepEqual(
      [result.outcome, result.tone, result.receipt?.signatureCheck, result.receipt?.warnings.map((w) => w.rule)],
      ["rejected", "bad", "invalid", ["signature/invalid"]],
    );
    assert.deepEqual(result.checks.slice(0, 1), [["signature", "fail"]]);
    assert.equal(result.cause, "signature");
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
        result.outcome,
        result.tone,
        result.receipt?.signatureCheck,
        result.receipt?.keyRefResolution,
        result.receipt?.warnings.map((w) => w.rule),
      ],
      ["rejected", "bad", "invalid", "resolved", ["signature/weak-key"]],
    );
    assert.deepEqual(result.checks.slice(0, 2), [
      ["signature", "fail"],
      ["key", "pass"],
    ]);
    assert.equal(result.cause, "signature");
  });
  it("a link with the resolver and UMID in its hash works; the copy buttons copy verdict, receipt, request", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ui });
    const shared = await context.newPage();
    await serveFixtureDid(shared, key);
    await shared.goto(`${ui}/#${new URLSearchParams({ resolver: origin, umid: "urn:browser:shown" })}`);
    await shared.locator("#result #verdict").waitFor();
    const result = await readResult(shared);
    assert.deepEqual([result.outcome, result.receipt?.outcome], ["accepted", "accepted"]);
    /** What the button `id` put on the clipboard, once it says it copied. */
    const copied = async (id: string) => {
      await shared.click(`#${id}`);
      await shared.locator(`#${id}[data-copy-state="copied"]`).waitFor();
      // A string, run in the page: this file is type-checked without the DOM library.
      return (await shared.evaluate("navigator.clipboard.readText()")) as string;
    };
    assert.equal(await copied("copy-request"), `${origin}/urn%3Abrowser%3Ashown`);
    assert.deepEqual(JSON.parse(await copied("copy-receipt")), result.receipt);
    const verdict = await copied("copy-verdict");
    assert.ok(verdict.startsWith(`${result.headline}: urn:browser:shown\n`), verdict);
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
