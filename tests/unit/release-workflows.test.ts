/**
 * This repository's own workflows (manifests-*.yml, the publishers', are deploy-config.test.ts's):
 * ci.yml runs .ci/run, which lints, dry-runs the publish and tests, on the lowest Node the
 * package allows; release.yml publishes only from a version tag that equals package.json's
 * version, only after ci.yml passed, the tarball it packed, with provenance, and is the
 * one job anywhere that may ask for an OIDC token.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/paths.ts";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const ci = read(".github/workflows/ci.yml");
const release = read(".github/workflows/release.yml");
const { name, engines } = JSON.parse(read("package.json")) as { name: string; engines: { node: string } };

/** The text of one job: from its name to the next job's, or the end. */
function job(workflow: string, id: string): string {
  const start = workflow.indexOf(`\n  ${id}:\n`);
  assert.ok(start >= 0, `no job ${id}`);
  const next = workflow.slice(start + 1).search(/\n {2}[\w-]+:\n/);
  return next < 0 ? workflow.slice(start) : workflow.slice(start, start + 1 + next);
}

/** The commands a job's `run:` steps run, in order, one string per step. */
function runs(text: string): string[] {
  return [...text.matchAll(/- (?:name: [^\n]*\n\s+)?run: (\|\n((?: {10}[^\n]*\n?)+)|[^\n]+)/g)].map((m) =>
    (m[2] ?? m[1]!).replace(/^ {10}/gm, "").trim(),
  );
}

test("ci.yml runs .ci/run on pull requests and main, on the lowest Node the package allows", () => {
  assert.match(ci, /^on:\n {2}pull_request:\n {2}push:\n {4}branches: \[main\]\n {2}workflow_call:\n\n/m);
  assert.match(ci, /^permissions:\n {2}contents: read\n\njobs:\n/m);
  const lowest = /^>=(\d+)\./.exec(engines.node)?.[1];
  assert.ok(lowest !== undefined, engines.node);
  const nodes = /node: \[([\d, ]+)\]/.exec(ci)?.[1]?.split(/,\s*/);
  assert.ok(nodes?.includes(lowest), `the matrix ${nodes} lacks Node ${lowest}, the lowest of engines ${engines.node}`);
  // Debian, as .ci/run expects: apt installs Debian's Chromium there, and not on Ubuntu.
  assert.match(ci, /container: node:\$\{\{ matrix\.node \}\}-bookworm\n/);
  assert.deepEqual(runs(job(ci, "test")), ["bash .ci/run"]);
});

test(".ci/run installs Chromium where it is missing, then installs, lints, dry-runs the publish and tests", () => {
  const script = read(".ci/run");
  assert.match(script, /apt-get install -y -qq chromium\b/);
  const steps = script.split("\n").filter((line) => /^npm /.test(line));
  assert.deepEqual(steps, [
    "npm ci --no-audit --no-fund",
    "npm run lint",
    "npm publish --dry-run",
    "npm test",
    "npm run test:scale",
  ]);
  // The property-based tests from a new seed on every run (issue 37): `npm test` alone runs the fixed one.
  assert.match(script, /^export UM_PROPERTY_SEED=random\nnpm test$/m);
});

test("release.yml runs on a pushed version tag only, and checks it is package.json's version first", () => {
  assert.match(release, /^on:\n {2}push:\n {4}tags: \["v\*\.\*\.\*"\]\n\npermissions:\n {2}contents: read\n\njobs:\n/m);
  const [check] = runs(job(release, "version"));
  assert.match(check!, /version="\$\(node -p 'require\("\.\/package\.json"\)\.version'\)"/);
  assert.match(check!, /if \[ "\$GITHUB_REF_NAME" != "v\$version" \]; then\n[^\n]*\n\s*exit 1\n/);
});

test("release.yml publishes only after ci.yml passed, the tarball it packed, with provenance", () => {
  assert.match(job(release, "ci"), /needs: version\n {4}uses: \.\/\.github\/workflows\/ci\.yml\n/);
  const publish = job(release, "publish");
  assert.match(publish, /needs: ci\n {4}runs-on: ubuntu-latest\n/);
  assert.doesNotMatch(publish, /container:/, "npm accepts provenance from a GitHub-hosted runner only");
  assert.match(publish, /\n {4}permissions:\n {6}contents: read\n {6}id-token: write\n/);
  assert.match(publish, /- uses: actions\/setup-node@v\d+\n {8}with:\n {10}node-version: 20\n/);
  assert.match(publish, /\n {10}node-version: 20\n {10}registry-url: https:\/\/registry\.npmjs\.org\n/);
  const steps = runs(publish);
  assert.deepEqual(steps.slice(0, 3), ["npm ci", "npm pack", "npm run pack:create"]);
  for (const packed of [name, "create-manifest-resolver"])
    assert.match(
      steps[3]!,
      new RegExp(`^npm publish "${packed}-\\$version\\.tgz" --provenance --access public --tag "\\$tag"$`, "m"),
    );
  assert.match(steps[3]!, /case "\$version" in \*-\*\) tag=next ;; \*\) tag=latest ;; esac/);
  assert.match(publish, /\n {8}env:\n {10}NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}\n/);
});

test("only the publish job may ask for an OIDC token or read the npm token", () => {
  const workflows = readdirSync(join(ROOT, ".github/workflows")).map((file) => read(`.github/workflows/${file}`));
  const count = (pattern: RegExp) => workflows.reduce((n, text) => n + (text.match(pattern)?.length ?? 0), 0);
  assert.equal(count(/id-token: write/g), 1);
  assert.equal(count(/secrets\.NPM_TOKEN/g), 1);
  assert.equal(count(/write-all|permissions: write/g), 0);
});

test("the workflows use the action majors the publishers' use", () => {
  const majors = (text: string) => new Set([...text.matchAll(/uses: (actions\/[\w-]+@v\d+)/g)].map((m) => m[1]));
  const publishers = majors(
    ["manifests-pull-request.yml", "manifests-main.yml"].map((name) => read(`.github/workflows/${name}`)).join("\n"),
  );
  for (const action of [...majors(ci), ...majors(release)])
    assert.ok(publishers.has(action), `${action}: the publishers' workflows use ${[...publishers].join(", ")}`);
});

test("create-manifest-resolver is released with the package, at its version, which it installs", () => {
  const create = JSON.parse(read("packages/create-manifest-resolver/package.json")) as {
    version: string;
    engines: { node: string };
  };
  const { version } = JSON.parse(read("package.json")) as { version: string };
  assert.equal(create.version, version);
  assert.equal(create.engines.node, engines.node);
  // The tag's job refuses a release whose two versions differ.
  assert.match(job(release, "version"), /packages\/create-manifest-resolver\/package\.json/);
});
