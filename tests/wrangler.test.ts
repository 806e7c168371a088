/**
 * What deploys to Cloudflare is what is tested: Wrangler itself (the devDependency, the
 * version docs/hosts.md's commands run) bundles the Worker of wrangler.jsonc and reads a
 * built output as its static assets, with `deploy --dry-run`, which uploads nothing and
 * needs no network or account. Wrangler still looks for a newer release of itself on the
 * npm registry as it prints its banner (WRANGLER_HIDE_BANNER skips both): the test points
 * it at a registry of its own and requires that nothing asks it, so the dry run works the
 * same on a machine without a network.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
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
        TMPDIR: fixture.root,
      };
      const outdir = join(fixture.root, "wrangler-out");
      try {
        const run = await wrangler(
          ["deploy", "--dry-run", "--outdir", outdir, "--config", configFile],
          fixture.root,
          env,
        );
        if (run.status !== 0) {
          const version = await wrangler(["--version"], fixture.root, env);
          if (version.status !== 0) return t.skip(`wrangler cannot run here: ${version.output.trim().split("\n")[0]}`);
        }
        assert.equal(run.status, 0, run.output);
        assert.ok(run.output.includes(`files from the assets directory ${fixture.dist}\n`), run.output);
        assert.match(run.output, /env\.ASSETS\s+Assets/);
        assert.match(run.output, /--dry-run: exiting now\./);
        assert.ok(
          readdirSync(outdir).some((name) => name.endsWith(".js")),
          "the bundled Worker is written",
        );
        assert.deepEqual(asked, [], "wrangler asked a server");
      } finally {
        registry.close();
      }
    },
  );
});
