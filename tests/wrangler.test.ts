/**
 * What deploys to Cloudflare is what is tested: Wrangler itself (the devDependency, the
 * version docs/hosts.md's commands run) bundles the Worker of wrangler.jsonc and reads a
 * built output as its static assets, with `deploy --dry-run`, which uploads nothing and
 * needs no network or account. Wrangler still looks for a newer release of itself on the
 * npm registry as it prints its banner (WRANGLER_HIDE_BANNER skips both): the test points
 * it at a registry of its own and requires that nothing asks it, so the dry run works the
 * same on a machine without a network. The witness's Worker likewise, from the wrangler.toml
 * and worker file docs/hosts.md gives, as written: the bundle Wrangler makes answers under
 * workerd with the page's variables.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { after, describe, it } from "node:test";
import { makeFixture } from "./support/fixture-content.ts";
import { ROOT } from "./support/paths.ts";
import { wranglerConfig } from "./support/runtimes.ts";

const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");
const skip = existsSync(WRANGLER)
  ? false
  : "wrangler is not installed (npm ci installs it; npm ci --omit=dev does not)";

/** Runs wrangler to its end without blocking this process, whose registry must answer. */
function wrangler(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(WRANGLER, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({
        status: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
        output: stdout + stderr,
      });
    });
  });
}

/**
 * `wrangler deploy --dry-run` of `configFile`, run in `cwd`, its bundle written to `outdir`: its status and output,
 * or undefined when Wrangler itself cannot run here. Asserts that it asked no server.
 */
async function dryRun(configFile: string, cwd: string, outdir: string) {
  const asked: string[] = [];
  const registry = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  const env = {
    ...process.env,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    // The banner is what looks for a newer release (printWranglerBanner in Wrangler 4).
    WRANGLER_HIDE_BANNER: "true",
    // The registry Wrangler's update check reads from npm's settings (`npm_registry`),
    // and an update-check cache of the test's own (under TMPDIR), so none hides a request.
    npm_registry: `http://127.0.0.1:${(registry.address() as { port: number }).port}/`,
    TMPDIR: cwd,
  };
  try {
    const run = await wrangler(["deploy", "--dry-run", "--outdir", outdir, "--config", configFile], cwd, env);
    if (run.status !== 0 && (await wrangler(["--version"], cwd, env)).status !== 0) return undefined;
    assert.deepEqual(asked, [], "wrangler asked a server");
    return run;
  } finally {
    registry.close();
  }
}

describe("wrangler deploy --dry-run of a built output", { skip }, () => {
  const fixture = makeFixture();
  after(() => fixture.cleanup());

  it(
    "bundles the Worker of wrangler.jsonc and takes the output as its assets, bound " + "as ASSETS, asking no server",
    async (t) => {
      // wrangler.jsonc as it is, but for where the output is: its `assets.directory` is
      // `./dist` beside itself (the repository's output), so a copy in the fixture names the
      // fixture's output and `main` by absolute paths. Run there, Wrangler's own state
      // (`.wrangler/`) stays out of the repository too.
      const config = wranglerConfig();
      const configFile = join(fixture.root, "wrangler.json");
      writeFileSync(
        configFile,
        JSON.stringify({
          ...config,
          main: join(ROOT, config.main),
          assets: { ...config.assets, directory: fixture.dist },
        }),
      );
      const outdir = join(fixture.root, "wrangler-out");
      const run = await dryRun(configFile, fixture.root, outdir);
      if (run === undefined) return t.skip("wrangler cannot run here");
      assert.equal(run.status, 0, run.output);
      assert.ok(run.output.includes(`files from the assets directory ${fixture.dist}\n`), run.output);
      assert.match(run.output, /env\.ASSETS\s+Assets/);
      assert.match(run.output, /--dry-run: exiting now\./);
      assert.ok(
        readdirSync(outdir).some((name) => name.endsWith(".js")),
        "the bundled Worker is written",
      );
    },
  );
});

describe("the witness's Worker as docs/hosts.md deploys it", { skip }, () => {
  const root = mkdtempSync(join(tmpdir(), "um-witness-deploy-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("takes the page's wrangler.toml and worker file as written, and the Worker it bundles answers", async (t) => {
    const section = readFileSync(join(ROOT, "docs/hosts.md"), "utf8").split("## A witness on Cloudflare\n")[1]!;
    const block = (language: string) => section.split(`\`\`\`${language}\n`)[1]!.split("```")[0]!;
    const toml = block("toml");
    writeFileSync(join(root, "wrangler.toml"), toml);
    writeFileSync(join(root, "witness.js"), block("js"));
    // The package as a user's project has it installed: lib/, which npm test builds first.
    mkdirSync(join(root, "node_modules"));
    symlinkSync(ROOT, join(root, "node_modules/manifest-resolver"));
    const outdir = join(root, "out");
    const run = await dryRun(join(root, "wrangler.toml"), root, outdir);
    if (run === undefined) return t.skip("wrangler cannot run here");
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /env\.WITNESS_STATE \(WitnessLog\)\s+Durable Object/);
    assert.match(toml, /^new_sqlite_classes = \["WitnessLog"\]$/m);
    const name = /^WITNESS_NAME = "([^"]+)"$/m.exec(toml)![1]!;
    const logsText = /^WITNESS_LOGS = """\n([\s\S]*?)"""$/m.exec(toml)![1]!;
    const { privateKey } = generateKeyPairSync("ed25519");
    const mf = new Miniflare({
      modules: true,
      script: readFileSync(join(outdir, "witness.js"), "utf8"),
      compatibilityDate: /^compatibility_date = "([^"]+)"$/m.exec(toml)![1]!,
      bindings: {
        WITNESS_NAME: name,
        WITNESS_LOGS: logsText,
        WITNESS_KEY: privateKey.export({ format: "pem", type: "pkcs8" }) as string,
      },
      durableObjects: { WITNESS_STATE: { className: "WitnessLog", useSQLite: true } },
    });
    try {
      const health = await mf.dispatchFetch("http://witness.example/health");
      assert.equal(health.status, 200, await health.clone().text());
      assert.deepEqual(
        [(await health.json()) as Record<string, unknown>].map(({ name, logs }) => ({ name, logs })),
        [{ name, logs: 1 }],
      );
    } finally {
      await mf.dispose();
    }
  });
});
