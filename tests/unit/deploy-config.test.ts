/**
 * The deployment files point at the code the tests run: the Netlify function routes every
 * path and method to the adapter the Deno harness serves, and the Cloudflare config
 * (which the workerd tests start from) runs the worker before assets.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/paths.ts";
import { wranglerConfig } from "../support/runtimes.ts";

test("netlify.toml routes every path and method to edge/adapters/netlify/resolver.ts", () => {
  const toml = readFileSync(join(ROOT, "netlify.toml"), "utf8").replace(/#.*$/gm, "");
  assert.match(toml, /^\s*publish = "dist"$/m);
  assert.match(toml, /^\s*command = "npm run build"$/m);
  assert.match(toml, /^\s*edge_functions = "edge\/adapters\/netlify"$/m);
  assert.match(toml, /\[\[edge_functions\]\]\s*path = "\/\*"\s*function = "resolver"/);
  assert.match(toml, /^\[context\.deploy-preview\]$/m);
  assert.doesNotMatch(toml, /method\s*=|excludedPath/);
  assert.ok(existsSync(join(ROOT, "edge/adapters/netlify/resolver.ts")));
  assert.doesNotMatch(readFileSync(join(ROOT, "edge/adapters/netlify/resolver.ts"), "utf8"), /export const config/);
});

test("wrangler.jsonc runs the worker first over the built output", () => {
  const config = wranglerConfig();
  assert.equal(config.main, "edge/adapters/cloudflare/worker.ts");
  assert.equal(config.assets.run_worker_first, true);
  assert.equal(config.assets.directory, "./dist");
  assert.ok(existsSync(join(ROOT, config.main)));
});

test("the publishers' workflow checks pull requests and builds main", () => {
  const workflow = readFileSync(join(ROOT, ".github/workflows/check.yml"), "utf8");
  assert.match(workflow, /on:\n  pull_request:\n  push:\n    branches: \[main\]/);
  assert.match(workflow, /check:\n    if: github\.event_name == 'pull_request'[\s\S]*?- run: npm ci\n[\s\S]*?- run: npx manifest-resolver check\n/);
  assert.match(workflow, /build:\n    if: github\.event_name == 'push'[\s\S]*?- run: npm ci\n[\s\S]*?- run: npx manifest-resolver build\n/);
});
