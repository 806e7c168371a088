/**
 * What deploys to Cloudflare is what is tested: Wrangler itself (the devDependency, the
 * version the README's commands run) bundles the Worker of wrangler.jsonc and reads a
 * built output as its static assets, with `deploy --dry-run`, which uploads nothing and
 * needs no network or account.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { makeFixture } from "./support/fixture-content.ts";
import { ROOT } from "./support/paths.ts";
import { wranglerConfig } from "./support/runtimes.ts";

const WRANGLER = join(ROOT, "node_modules/.bin/wrangler");
const skip = existsSync(WRANGLER) ? false : "wrangler is not installed (npm ci installs it)";

describe("wrangler deploy --dry-run of a built output", { skip }, () => {
  const fixture = makeFixture();
  after(() => fixture.cleanup());

  it("bundles the Worker of wrangler.jsonc and takes the output as its assets, bound as ASSETS", () => {
    // wrangler.jsonc as it is, but for where the output is: the fixture's, not the repository's dist/.
    const config = wranglerConfig();
    const configFile = join(fixture.root, "wrangler.json");
    writeFileSync(configFile, JSON.stringify({ ...config, main: join(ROOT, config.main), assets: { ...config.assets, directory: fixture.dist } }));
    const outdir = join(fixture.root, "wrangler-out");
    const run = spawnSync(WRANGLER, ["deploy", "--dry-run", "--outdir", outdir, "--config", configFile], {
      cwd: fixture.root,
      encoding: "utf8",
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.ok(run.stdout.includes(`files from the assets directory ${fixture.dist}\n`), run.stdout);
    assert.match(run.stdout, /env\.ASSETS\s+Assets/);
    assert.match(run.stdout, /--dry-run: exiting now\./);
    assert.ok(readdirSync(outdir).some((name) => name.endsWith(".js")), "the bundled Worker is written");
    rmSync(outdir, { recursive: true, force: true });
  });
});
