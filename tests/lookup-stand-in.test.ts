/**
 * Green locally (issue 39, part 5). A project made for a resolver not yet deployed (https://manifests.example.org,
 * which this test's browser cannot reach) signs under that resolver's did:web, whose document its build writes. The
 * lookup page `dev` serves reads its manifest as "Usable", its key confirmed by that document as the dev server
 * answers it. Asked of the same server under another name, the page stands in for nothing, and a DID document that
 * cannot be fetched is said to be the signer's, not the resolver's failure.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { Receipt } from "../core/evaluate/index.ts";
import { standInWords } from "../lookup-page/stand-in.ts";
import { launchChromium, skipWithoutChromium } from "./support/chromium.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { servedAt, startPrintingUrl, type Started } from "./support/processes.ts";

const PRODUCTION = "https://manifests.example.org";

describe("the lookup page of dev, for a resolver not yet deployed", { skip: skipWithoutChromium }, () => {
  const scratch = mkdtempSync(join(tmpdir(), "um-stand-in-"));
  const project = join(scratch, "project");
  const env = { ...process.env, HOME: join(scratch, "home"), GITHUB_ACTIONS: "", UM_RESOLVER_URL: undefined };
  let umid = "";
  let port = 0;
  let dev: Started;
  let browser: Browser;
  let page: Page;

  before(async () => {
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), "{}\n");
    for (const args of [
      ["init", "--resolver-url", PRODUCTION],
      ["keygen"],
      ["new", "--file", "content/first.jsonld"],
      ["sign", "content"],
    ]) {
      const ran = await runCliInProcess(args, project, env);
      assert.equal(ran.status, 0, `${args.join(" ")}: ${ran.stdout}${ran.stderr}`);
    }
    umid = JSON.parse(readFileSync(join(project, "content/first.jsonld"), "utf8"))["@id"];
    port = await freePort();
    dev = await startPrintingUrl(
      process.execPath,
      [CLI, "dev", "--sign", "--port", String(port), "--ui-port", "0"],
      env,
      2,
      project,
    );
    browser = await launchChromium();
    page = await browser.newPage();
    // Not deployed: whatever the page asks of the production resolver finds nobody there.
    await page.route(`${PRODUCTION}/**`, (route) => route.abort("addressunreachable"));
  });
  after(async () => {
    await browser?.close();
    await dev?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The page's verdict on `umid` asked of `resolver`, read from its structure (page-contract, issue 40). */
  async function lookUp(resolver: string) {
    await page.goto(`${servedAt(dev).page}?${new URLSearchParams({ resolver, umid })}`);
    const verdict = page.locator("#result #verdict");
    await verdict.waitFor();
    const attributes = (selector: string, name: string) =>
      page.locator(selector).evaluateAll((nodes, name) => nodes.map((node) => node.getAttribute(name) ?? ""), name);
    const checks = await attributes("#checklist > li", "data-check");
    const results = await attributes("#checklist > li", "data-result");
    const kinds = await attributes("#exchanges > li", "data-kind");
    const lines = await page.locator("#exchanges > li").allTextContents();
    return {
      outcome: await verdict.getAttribute("data-outcome"),
      tone: await verdict.getAttribute("data-tone"),
      reasons: await page.locator("#reasons > li").allTextContents(),
      checks: Object.fromEntries(checks.map((check, i) => [check, results[i]])),
      happened: lines.map((text, i) => ({ kind: kinds[i], text })),
      receipt: JSON.parse((await page.locator("#receipt").textContent())!) as Receipt,
    };
  }

  it("reads Usable, the key confirmed by the DID document dev serves for the configured resolver", async () => {
    const local = `http://127.0.0.1:${port}`;
    const result = await lookUp(local);
    assert.deepEqual([result.outcome, result.tone], ["accepted", "ok"], result.reasons.join("\n"));
    assert.deepEqual(result.checks, {
      signature: "pass",
      key: "pass",
      fresh: "pass",
      status: "pass",
      logged: "skip",
      tier: "pass",
    });
    assert.deepEqual(
      [result.receipt.keyRefResolution, result.receipt.keyRefResolvedBy],
      ["resolved", `${PRODUCTION}/.well-known/did.json`],
    );
    // The verdict says, last, whose answers these were.
    assert.equal(result.reasons.at(-1), standInWords({ for: PRODUCTION, at: local }));
    // Every request went to the local server: the manifest, the DID document and the status its statusRef names.
    assert.deepEqual(
      result.happened.map(({ kind, text }) => [kind, text.replace(/: .*/, "")]),
      [
        ["manifest", `GET ${local}/${encodeURIComponent(umid)}`],
        ["did", `GET ${local}/.well-known/did.json`],
        ["status", `GET ${local}/.well-known/manifest-resolver/status/${encodeURIComponent(umid)}`],
      ],
    );
  });

  it("asked under another name, stands in for nothing, and blames the DID document's host, not the resolver", async () => {
    const result = await lookUp(`http://localhost:${port}`);
    assert.deepEqual([result.outcome, result.tone], ["accepted-with-warnings", "warn"], result.reasons.join("\n"));
    // The signature holds; whose key it is, nothing here says.
    assert.deepEqual([result.checks.signature, result.checks.key], ["pass", "warn"]);
    const didDocument = result.happened.find(
      ({ kind, text }) => kind === "did" && text.startsWith(`GET ${PRODUCTION}/.well-known/did.json:`),
    )?.text;
    assert.match(
      didDocument ?? "",
      /This is the signer's DID document, which manifests\.example\.org serves, not the resolver/,
    );
    assert.doesNotMatch(didDocument ?? "", /resolver URL right/);
  });
});
