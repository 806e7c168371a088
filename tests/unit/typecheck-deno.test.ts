/**
 * The edge code also type-checks as Deno sees it: Deno's own libs (not Node's types),
 * which is what Netlify runs. `--no-config` keeps Deno from reading tsconfig.json.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/paths.ts";
import { DENO_ENV } from "../support/runtimes.ts";

test("edge adapters and the Deno harness pass `deno check`", () => {
  const files = [
    "edge/adapters/netlify/resolver.ts",
    "edge/adapters/cloudflare/worker.ts",
    "tests/runtimes/netlify-deno.ts",
  ];
  const result = spawnSync(join(ROOT, "node_modules/.bin/deno"), ["check", "--quiet", "--no-config", ...files], {
    cwd: ROOT,
    encoding: "utf8",
    env: DENO_ENV,
  });
  assert.equal(result.status, 0, result.stderr + result.stdout);
});
