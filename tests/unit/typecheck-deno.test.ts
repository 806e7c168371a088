/**
 * The edge code also type-checks as Deno sees it: Deno's own libs (not Node's types),
 * which is what Netlify runs. `--no-config` keeps Deno from reading tsconfig.json, and so
 * package.json too: an import map gives it the one package scope core imports (@noble: the
 * log's hashes, which the edge composes offline proofs with), as installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { ROOT } from "../support/paths.ts";
import { DENO_ENV } from "../support/runtimes.ts";

test("edge adapters and the Deno harness pass `deno check`", () => {
  const files = [
    "edge/adapters/netlify/resolver.ts",
    "edge/adapters/cloudflare/worker.ts",
    "tests/runtimes/netlify-deno.ts",
  ];
  const scratch = mkdtempSync(join(tmpdir(), "um-deno-check-"));
  try {
    const importMap = join(scratch, "import-map.json");
    const noble = `${pathToFileURL(join(ROOT, "node_modules/@noble")).href}/`;
    writeFileSync(importMap, JSON.stringify({ imports: { "@noble/": noble } }));
    const args = ["check", "--quiet", "--no-config", `--import-map=${importMap}`, ...files];
    const result = spawnSync(join(ROOT, "node_modules/.bin/deno"), args, {
      cwd: ROOT,
      encoding: "utf8",
      env: DENO_ENV,
    });
    assert.equal(result.status, 0, result.stderr + result.stdout);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
