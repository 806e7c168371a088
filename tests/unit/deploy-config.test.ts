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

/** A workflow of this repository's, which `init` also writes into a publisher's. */
const workflow = (name: string) => readFileSync(join(ROOT, ".github/workflows", name), "utf8");

test("the publishers' workflows check pull requests and build main, on Node 22 and current actions", () => {
  const pullRequest = workflow("manifests-pull-request.yml");
  assert.match(pullRequest, /^on:\n {2}pull_request:\n\n/m);
  assert.match(
    pullRequest,
    /check:\n[\s\S]*?- run: npm ci\n[\s\S]*?- uses: actions\/cache@v6\n {8}with:\n {10}path: node_modules\/\.cache\/manifest-resolver\n[\s\S]*?- run: npx manifest-resolver check\n {10}--base \$\{\{ github\.event\.pull_request\.base\.sha \}\}\n {10}--summary "\$RUNNER_TEMP\/summary\.md"\n/,
  );
  // Its problems go to code scanning too, even when the check fails: the one job that may write security events.
  assert.match(
    pullRequest,
    /check:\n {4}runs-on: ubuntu-latest\n(?: {4}#[^\n]*\n)* {4}permissions:\n {6}contents: read\n {6}security-events: write\n[\s\S]*?- run: npx manifest-resolver check\n(?: {10}[^\n]*\n)*? {10}--sarif manifest-resolver\.sarif\n[\s\S]*?- if: always\(\) && hashFiles\('manifest-resolver\.sarif'\) != ''\n {8}uses: github\/codeql-action\/upload-sarif@v4\n {8}with:\n {10}sarif_file: manifest-resolver\.sarif\n/,
  );
  assert.equal(pullRequest.match(/security-events: write/g)?.length, 1);
  const main = workflow("manifests-main.yml");
  assert.match(main, /^on:\n {2}push:\n {4}branches: \[main\]\n/m);
  assert.match(
    main,
    /build:\n[\s\S]*?- run: npm ci\n[\s\S]*?- uses: actions\/cache@v6\n {8}with:\n {10}path: node_modules\/\.cache\/manifest-resolver\n[\s\S]*?- run: npx manifest-resolver build\n/,
  );
  for (const text of [pullRequest, main]) {
    // Node 20 is past its end of life, and so are the @v4 actions that run on it.
    assert.deepEqual(
      [...text.matchAll(/node-version: (\d+)/g)].map((m) => m[1]),
      ["22"],
    );
    assert.deepEqual(
      [...new Set([...text.matchAll(/uses: (\S+)/g)].map((m) => m[1]))].filter(
        (action) => !["actions/cache@v6", "actions/checkout@v7", "actions/setup-node@v7"].includes(action!),
      ),
      text === main ? ["actions/upload-artifact@v7"] : ["github/codeql-action/upload-sarif@v4"],
    );
  }
});

test("Netlify builds on Node 22", () => {
  const toml = readFileSync(join(ROOT, "netlify.toml"), "utf8").replace(/#.*$/gm, "");
  assert.match(toml, /^\s*NODE_VERSION = "22"$/m);
});

test("the built CLI imports no package: an installed one has no dependencies to load", () => {
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  assert.equal(dependencies, undefined);
  const bundle = join(ROOT, "lib/cli");
  const imported = readdirSync(bundle)
    .filter((name) => name.endsWith(".js"))
    .flatMap((name) =>
      [...readFileSync(join(bundle, name), "utf8").matchAll(/\b(?:from|import)\s*\(?\s*["']([^"'.][^"']*)["']/g)].map(
        (m) => m[1]!,
      ),
    )
    // Not node's own modules, nor the template of the edge functions `init` writes.
    .filter((specifier) => !specifier.startsWith("node:") && !specifier.includes("${"));
  // esbuild bundles the lookup page's script in this repository only; the package carries it built.
  assert.deepEqual([...new Set(imported)], ["esbuild"]);
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
      readFileSync(join(ROOT, "scripts/commands/build-declaration.ts"), "utf8"),
    ]
      .join("\n")
      .replace(/\s*\n\s*/g, " ");
    const commands = [...shown.matchAll(/wrangler kv bulk put [^;'`]*/g)].map((m) => m[0]);
    assert.ok(commands.length >= 2, commands.join("\n"));
    for (const command of commands) assert.match(command, /--remote\b/, command);
  },
);

test("every dependency with an install script is covered by the install-script policy, and denied", () => {
  const { allowScripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    allowScripts: Record<string, boolean>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  assert.ok(withScripts.length > 0);
  // None is needed: each finds its platform's binary package without its script.
  for (const name of withScripts) assert.equal(allowScripts[name], false, name);
  // And npm makes an unreviewed one an error rather than a warning.
  assert.match(readFileSync(join(ROOT, ".npmrc"), "utf8"), /^strict-allow-scripts=true$/m);
});
