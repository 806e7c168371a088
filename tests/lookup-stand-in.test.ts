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
import { launchChromium, skipWithoutChromium } from "./support/chromium.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";

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

  async function lookUp(resolver: string) {
    await page.goto(`${dev.urls[1]}/?${new URLSearchParams({ resolver, umid })}`);
    const verdict = page.locator("#result .verdict");
    await verdict.waitFor();
    return {
      tone: (await verdict.getAttribute("class"))!.replace(/^verdict /, ""),
      headline: await verdict.locator(".headline").innerText(),
      reasons: await verdict.locator("li").allInnerTexts(),
      happened: await page.locator("#result > ul > li").allInnerTexts(),
    };
  }

  it("reads Usable, the key confirmed by the DID document dev serves for the configured resolver", async () => {
    const local = `http://127.0.0.1:${port}`;
    const result = await lookUp(local);
    assert.deepEqual([result.tone, result.headline], ["ok", "Usable"], result.reasons.join("\n"));
    assert.deepEqual(result.reasons.slice(1), [
      `its key is confirmed by its signer's DID document, ${PRODUCTION}/.well-known/did.json`,
      `answered by this local server in place of ${PRODUCTION}, the resolver URL this output was built for: ` +
        "what that resolver will answer once the output is deployed there",
    ]);
    // Every request went to the local server: the manifest, the DID document and the status its statusRef names.
    assert.deepEqual(
      result.happened.map((line) => line.replace(/: .*/, "")),
      [
        `GET ${local}/${encodeURIComponent(umid)}`,
        `GET ${local}/.well-known/did.json`,
        `GET ${local}/.well-known/manifest-resolver/status/${encodeURIComponent(umid)}`,
      ],
    );
  });

  it("asked under another name, stands in for nothing, and blames the DID document's host, not the resolver", async () => {
    const result = await lookUp(`http://localhost:${port}`);
    assert.equal(result.tone, "warn", result.reasons.join("\n"));
    const didDocument = result.happened.find((line) => line.startsWith(`GET ${PRODUCTION}/.well-known/did.json:`));
    assert.match(
      didDocument ?? "",
      /This is the signer's DID document, which manifests\.example\.org serves, not the resolver/,
    );
    assert.doesNotMatch(didDocument ?? "", /resolver URL right/);
  });
});
