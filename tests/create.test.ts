/**
 * `npm create manifest-resolver` as a new publisher runs it (issue 39): both packages packed, then create run offline
 * from its tarball (the registry a dead port, manifest-resolver installed from its own tarball) in an empty folder
 * with --yes. In the project it makes, with no file edited by hand: `npm run dev` serves an edit once it is saved,
 * `suspend` reaches `resolve`, and the Netlify function and the Worker init wrote answer the manifest.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pack, packCreate, type Packed } from "../tools/pack.ts";
import { freePort } from "./support/http.ts";
import { startNetlifyFunction, startWorker } from "./support/runtimes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-create-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** npm with no registry to reach, and a home of the test's own: the keys folder is there. */
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_"))),
  HOME: join(scratch, "home"),
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_offline: "true",
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
  GITHUB_ACTIONS: "",
  UM_RESOLVER_URL: undefined,
};

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** The arguments of `npm exec` running create-manifest-resolver, from its tarball, with `args`. */
const createArgs = (...args: string[]) => [
  "exec",
  `--package=${create.tarball}`,
  "--",
  "create-manifest-resolver",
  ...args,
];

let main: Packed;
let create: Packed;
before(async () => {
  main = pack(scratch);
  create = await packCreate(scratch);
});

describe("npm create manifest-resolver", () => {
  const site = join(scratch, "site");
  let port = 0;
  let umid = "";
  const cli = (...args: string[]) =>
    run(process.execPath, [join(site, "node_modules/manifest-resolver/bin/manifest-resolver.js"), ...args], site);

  it("makes a project with --yes: installed, initialized, a key pinned outside it, one manifest signed", async () => {
    port = await freePort();
    const printed = run(
      "npm",
      createArgs("site", "--yes", "--package", main.tarball, "--resolver-url", `http://127.0.0.1:${port}`),
      scratch,
    );
    assert.match(printed, /^ {2}npm run dev$/m);
    const settings = JSON.parse(readFileSync(join(site, "manifest-resolver.json"), "utf8"));
    assert.equal(settings.resolverUrl, `http://127.0.0.1:${port}`);
    // A did:web names no IP address: the key's own did:key is its keyRef, which resolves offline.
    assert.match(settings.signingKeyRef, /^did:key:z6Mk\w+#z6Mk\w+$/);
    readFileSync(join(scratch, "home/.manifest-keys/site/signing.pem"));
    const manifest = JSON.parse(readFileSync(join(site, "content/first.jsonld"), "utf8"));
    umid = manifest["@id"];
    assert.equal(manifest.signature.keyRef, settings.signingKeyRef);
    assert.ok(manifest.signature.statusRef.startsWith(`http://127.0.0.1:${port}/`));
    assert.match(cli("check"), /no errors/);
  });

  it("leaves no half a project when a step fails: the folder is as it was, and a second run may use it", () => {
    const failed = spawnSync("npm", createArgs("half", "--yes", "--package", "./none.tgz"), {
      cwd: scratch,
      env: ENV,
      encoding: "utf8",
    });
    assert.notEqual(failed.status, 0);
    assert.match(failed.stderr, /^create-manifest-resolver: .*half is as it was before$/m);
    assert.equal(existsSync(join(scratch, "half")), false);
  });

  it("serves an edit under npm run dev, and a suspension reaches resolve", async () => {
    const uiPort = await freePort();
    const dev = spawn("npm", ["run", "dev", "--", "--port", String(port), "--ui-port", String(uiPort)], {
      cwd: site,
      env: ENV,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    dev.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const printed = async (pattern: RegExp, from: number) => {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(output.slice(from))) {
        assert.ok(Date.now() < deadline, `nothing matched ${pattern} in 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await printed(/^watching content\//m, 0);
      const resolver = `http://127.0.0.1:${port}`;
      const file = join(site, "content/first.jsonld");
      let from = output.length;
      writeFileSync(
        file,
        JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), expiresAt: "2031-01-01T00:00:00Z" }),
      );
      await printed(/ built 1 manifest/, from);
      const served = (await (await fetch(`${resolver}/${encodeURIComponent(umid)}`)).json()) as { expiresAt: string };
      assert.equal(served.expiresAt, "2031-01-01T00:00:00Z");
      // Its key is confirmed (its keyRef is the key itself): the verdict is usable, with no warning.
      const active = JSON.parse(cli("resolve", resolver, umid));
      assert.deepEqual([active.outcome, active.revocationStatus], ["accepted", "active"], JSON.stringify(active));

      from = output.length;
      cli("suspend", umid, "--reason", "under review");
      await printed(/ built 1 manifest.*1 suspended/, from);
      const suspended = JSON.parse(cli("resolve", resolver, umid));
      assert.equal(suspended.revocationStatus, "suspended");
    } finally {
      // npm runs dev as its child: the group is stopped.
      process.kill(-dev.pid!, "SIGINT");
      await new Promise((resolve) => dev.once("exit", resolve));
    }
  });

  it("is answered by the Netlify function and the Worker init wrote", async () => {
    for (const started of [
      await startNetlifyFunction(join(site, "dist"), {
        root: site,
        functionFile: "netlify/edge-functions/resolver.ts",
      }),
      await startWorker(join(site, "dist"), site),
    ]) {
      try {
        const response = await fetch(`${started.url}/${encodeURIComponent(umid)}`);
        assert.equal(response.status, 200);
        assert.equal(((await response.json()) as Record<string, unknown>)["@id"], umid);
      } finally {
        await started.stop();
      }
    }
  });
});
