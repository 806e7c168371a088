/**
 * The deployment files point at the code the tests run: the Netlify function routes every
 * path and method to the adapter the Deno harness serves, and the Cloudflare config
 * (which the workerd tests start from) runs the worker before assets.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

test(
  "the publishers' workflow checks pull requests and builds main, on Node 22 and " +
    "current actions, without devDependencies",
  () => {
    const workflow = readFileSync(join(ROOT, ".github/workflows/check.yml"), "utf8");
    assert.match(workflow, /on:\n {2}pull_request:\n {2}push:\n {4}branches: \[main\]/);
    assert.match(
      workflow,
      /check:\n {4}if: github\.event_name == 'pull_request'[\s\S]*?- run: npm ci --omit=dev\n[\s\S]*?- uses: actions\/cache@v6\n {8}with:\n {10}path: node_modules\/\.cache\/manifest-resolver\n[\s\S]*?- run: npx manifest-resolver check\n/,
    );
    // Its problems go to code scanning too, even when the check fails: the one job that may write security events.
    assert.match(
      workflow,
      /check:\n[^\n]*\n {4}runs-on: ubuntu-latest\n(?: {4}#[^\n]*\n)* {4}permissions:\n {6}contents: read\n {6}security-events: write\n[\s\S]*?- run: npx manifest-resolver check\n(?: {10}[^\n]*\n)*? {10}--sarif manifest-resolver\.sarif\n[\s\S]*?- if: always\(\) && hashFiles\('manifest-resolver\.sarif'\) != ''\n {8}uses: github\/codeql-action\/upload-sarif@v4\n {8}with:\n {10}sarif_file: manifest-resolver\.sarif\n/,
    );
    assert.equal(workflow.match(/security-events: write/g)?.length, 1);
    assert.match(
      workflow,
      /build:\n {4}if: github\.event_name == 'push'[\s\S]*?- run: npm ci --omit=dev\n[\s\S]*?- uses: actions\/cache@v6\n {8}with:\n {10}path: node_modules\/\.cache\/manifest-resolver\n[\s\S]*?- run: npx manifest-resolver build\n/,
    );
    // Node 20 is past its end of life, and so are the @v4 actions that run on it.
    assert.deepEqual(
      [...workflow.matchAll(/node-version: (\d+)/g)].map((m) => m[1]),
      ["22", "22"],
    );
    assert.deepEqual([...new Set([...workflow.matchAll(/uses: (\S+)/g)].map((m) => m[1]))].sort(), [
      "actions/cache@v6",
      "actions/checkout@v7",
      "actions/setup-node@v7",
      "actions/upload-artifact@v7",
      "github/codeql-action/upload-sarif@v4",
    ]);
  },
);

test("Netlify builds on Node 22, without devDependencies", () => {
  const toml = readFileSync(join(ROOT, "netlify.toml"), "utf8").replace(/#.*$/gm, "");
  assert.match(toml, /^\s*NODE_VERSION = "22"$/m);
  assert.match(toml, /^\s*NPM_FLAGS = "--omit=dev"$/m);
  // So every package the CLI imports (bin/, scripts/, edge/, core/) must be a dependency.
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const sources = ["bin", "scripts", "edge", "core"].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true }).map((name) => join(ROOT, dir, String(name))),
  );
  const imported = new Set(
    sources
      .filter((file) => /\.(ts|js)$/.test(file))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s+|^import\s+)["']([^"'./\s][^"'\s]*)["']/gm)].map(
          (m) => m[1]!,
        ),
      )
      .filter((specifier) => !specifier.startsWith("node:"))
      .map((specifier) =>
        specifier
          .split("/")
          .slice(0, specifier.startsWith("@") ? 2 : 1)
          .join("/"),
      ),
  );
  assert.ok(imported.has("ajv") && imported.has("fast-glob"), [...imported].join(", "));
  for (const name of imported) assert.ok(dependencies[name], `${name} is imported by the CLI but not a dependency`);
});

test("the hosts' local state is not committed", () => {
  const ignored = readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n");
  for (const entry of [".netlify/", ".wrangler/", "dist/", "*.pem", "*.lock"])
    assert.ok(ignored.includes(entry), entry);
});

test(
  "every Workers KV loading command the publisher is shown writes to Cloudflare, " +
    "not to Wrangler 4's local storage",
  () => {
    const shown = [
      ...["README.md", "docs/hosts.md"].map((page) => readFileSync(join(ROOT, page), "utf8")),
      readFileSync(join(ROOT, "scripts/commands/build.ts"), "utf8"),
    ]
      .join("\n")
      .replace(/\s*\n\s*/g, " ");
    const commands = [...shown.matchAll(/wrangler kv bulk put [^;'`]*/g)].map((m) => m[0]);
    assert.ok(commands.length >= 2, commands.join("\n"));
    for (const command of commands) assert.match(command, /--remote\b/, command);
  },
);
