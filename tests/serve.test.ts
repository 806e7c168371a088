/** `manifest-resolver serve` as a publisher uses it while editing content. */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, test } from "node:test";
import { umidPath } from "../core/umid-path.ts";
import { BROWSER_ACCEPT, manifestBody } from "./contract/cases.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { rawRequest } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { assertLineNames } from "./support/problems.ts";
import { servedAt, startPrintingUrl } from "./support/processes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-serve-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const key = newKey();
const content = join(scratch, "content");
const dist = join(scratch, "dist");
mkdirSync(content);

function build(manifests: Record<string, unknown>[]) {
  rmSync(content, { recursive: true, force: true });
  mkdirSync(content);
  for (const [i, m] of manifests.entries()) writeFileSync(join(content, `m${i}.json`), JSON.stringify(m));
  const result = spawnSync(process.execPath, [CLI, "build", "--content", content, "--out", dist], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stderr);
}

test("serve answers from a new build without a restart", async () => {
  const first = signed(manifestFor("urn:edited", { subject: "did:web:before.example" }), key);
  build([first]);
  const server = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"]);
  try {
    assert.deepEqual((await rawRequest(server.url, "GET", umidPath("urn:edited"))).body, manifestBody(first));

    const edited = signed(manifestFor("urn:edited", { subject: "did:web:after.example" }), key);
    const added = signed(manifestFor("urn:added"), key);
    build([edited, added]);
    let response = await rawRequest(server.url, "GET", umidPath("urn:added"));
    for (let i = 0; i < 50 && response.status !== 200; i++) {
      await sleep(100);
      response = await rawRequest(server.url, "GET", umidPath("urn:added"));
    }
    assert.equal(response.status, 200);
    const now = await rawRequest(server.url, "GET", umidPath("urn:edited"));
    assert.equal(now.status, 200);
    assert.deepEqual(now.body, manifestBody(edited));
  } finally {
    await server.stop();
  }
});

test("serve --ui-port prints the lookup page first, and the resolver's own address links browsers to it", async () => {
  build([signed(manifestFor("urn:first"), key)]);
  const server = await startPrintingUrl(
    process.execPath,
    [CLI, "serve", "--dist", dist, "--port", "0", "--ui-port", "0"],
    process.env,
    3,
  );
  try {
    const { resolver, page } = servedAt(server);
    // The first address a terminal shows is the one people open.
    assert.deepEqual(
      server.urls,
      [page, resolver, page].map((url) => url.replace(/\/$/, "")),
    );
    assert.match(server.output!.split("\n")[2]!, /^look one up: /);
    const home = await rawRequest(resolver, "GET", "/", { Accept: BROWSER_ACCEPT });
    assert.equal(home.status, 200);
    const links = [...home.body.toString().matchAll(/href="([^"]*)"/g)].map(([, href]) => href);
    assert.ok(links.includes(page), `${page} among ${links.join(", ")}`);
    assert.equal((await fetch(page)).status, 200);
    // A program still gets the contract's 400.
    assert.equal((await rawRequest(resolver, "GET", "/", { Accept: "application/json" })).status, 400);
  } finally {
    await server.stop();
  }
});

test("serve stops on Ctrl+C with status 0", async () => {
  build([signed(manifestFor("urn:x"), key)]);
  const child = spawn(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  child.kill("SIGINT");
  const code = await new Promise((resolve) => child.once("exit", resolve));
  assert.equal(code, 0);
});

test("serve reports a port in use, status 1", async () => {
  build([signed(manifestFor("urn:x"), key)]);
  const server = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"]);
  try {
    const port = new URL(server.url).port;
    const result = spawnSync(process.execPath, [CLI, "serve", "--dist", dist, "--port", port], { encoding: "utf8" });
    assert.equal(result.status, 1);
    // The address, and the system's code.
    assertLineNames(result.stderr, `127.0.0.1:${port}`, "EADDRINUSE");
  } finally {
    await server.stop();
  }
});
