/**
 * The README's walkthrough ("From an empty repository to a deployed resolver") as a new
 * publisher takes it, in a copy of this repository used as a template: the sample content
 * removed, a key made and pinned, a manifest written, signed, checked and built, then a
 * transparency log kept and status lists published, with the commands the README gives;
 * then, in that copy, tests that once read the sample content, which must pass on the
 * publisher's own. tests/publisher.test.ts takes each step in detail in an empty folder;
 * this is the repository as a template hands it over.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { readRecords } from "../support/index.ts";
import { ROOT } from "../support/paths.ts";
import { printedProblems } from "../support/problems.ts";
import { runCommand } from "../support/processes.ts";

/** cli.test.ts read the sample content/ before it made its own; check and serve make theirs, and are quick. */
const TESTS_IN_THE_COPY = ["tests/cli.test.ts", "tests/check.test.ts", "tests/serve.test.ts"];

const scratch = mkdtempSync(join(tmpdir(), "um-walkthrough-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// A publisher's shell: no GitHub annotations; npx runs the template's own CLI or fails, never
// installing a package of that name from the registry; and no trace of this test runner,
// whose NODE_TEST_CONTEXT would make the tests run in the copy report to it instead.
const home = join(scratch, "home");
const publisherEnv = {
  ...process.env,
  GITHUB_ACTIONS: "",
  npm_config_yes: "false",
  NODE_TEST_CONTEXT: undefined,
  HOME: home,
  UM_RESOLVER_URL: undefined,
};

/**
 * The commands of the README's step that `heading` starts (its first block of shell, but `monitor`, which asks a
 * deployed resolver), each as the README gives it.
 */
function readmeCommands(heading: RegExp): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const start = readme.findIndex((line) => heading.test(line));
  assert.ok(start >= 0, `README has no step ${heading}`);
  const open = readme.findIndex((line, i) => i > start && line.trim() === "```sh");
  const close = readme.findIndex((line, i) => i > open && line.trim() === "```");
  return readme
    .slice(open + 1, close)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.includes(" monitor "));
}

/** The one line of the README's that `line` matches, trimmed: a command as the README gives it. */
function readmeLine(line: RegExp): string {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => line.test(l));
  assert.equal(lines.length, 1, `README has one line matching ${line}`);
  return lines[0]!;
}

test("the README's walkthrough in a copy of the repository, then the tests there", async () => {
  const repo = join(scratch, "repo");
  const inRepo = async (command: string, ...args: string[]) => {
    const result = await runCommand(command, args, repo, publisherEnv);
    assert.equal(result.status, 0, `${command} ${args.join(" ")}:\n${result.stdout}${result.stderr}`);
    return result.stdout;
  };

  // The template: the files a commit of the working tree would hold, tracked or new, but a deleted one and
  // node_modules (a link to a checkout's packages is no ignored folder to git). `npm ci` is the installed
  // packages, linked; the CLI is bundled as `npm test` bundles it first.
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  }).split("\0");
  for (const file of files.filter((f) => f !== "" && f !== "node_modules" && existsSync(join(ROOT, f))))
    cpSync(join(ROOT, file), join(repo, file));
  symlinkSync(join(ROOT, "node_modules"), join(repo, "node_modules"));
  await inRepo("npm", "run", "build:cli");

  // 1. rm -r content/*: an empty content/, which a clone may lack already (git keeps no empty folder).
  rmSync(join(repo, "content"), { recursive: true, force: true });
  mkdirSync(join(repo, "content"));

  // 2. A key outside the repository (the keys folder under the publisher's home), pinned by keygen under the keyRef
  // of the resolver's URL, which the template was given as the README says.
  await inRepo("sh", "-c", readmeLine(/^echo .* > manifest-resolver\.json$/));
  await inRepo("npx", "manifest-resolver", "keygen");
  const keyFile = join(home, ".manifest-keys/repo/signing.pem");
  const spki = createPublicKey(createPrivateKey(readFileSync(keyFile, "utf8")))
    .export({ format: "der", type: "spki" })
    .toString("base64");
  assert.deepEqual(JSON.parse(readFileSync(join(repo, "content/_keys.json"), "utf8")), {
    "did:web:you.example#key-1": spki,
  });

  // 3, 4. A manifest, signed with the project's key and keyRef: no flag.
  await inRepo("npx", "manifest-resolver", "new", "--subject", "did:web:you.example", "--file", "content/me.jsonld");
  await inRepo("npx", "manifest-resolver", "sign", "content");

  // 5. Checked without a problem, and built: the publisher's manifest is all the resolver serves.
  assert.deepEqual(printedProblems(await inRepo("npx", "manifest-resolver", "check")), []);
  await inRepo("npm", "run", "build");
  const { "@id": umid } = JSON.parse(readFileSync(join(repo, "content/me.jsonld"), "utf8"));
  assert.deepEqual(Object.keys(readRecords(join(repo, "dist"))), [umid]);

  // 8, 9. A transparency log, then status lists, each command as the README's steps give it; the build then
  // publishes the lists, signed with the key keygen made.
  for (const step of [/^8\. \*\*Keep a transparency log/, /^9\. \*\*Publish status in lists/])
    for (const command of readmeCommands(step)) await inRepo("sh", "-c", command);
  const lists = readdirSync(join(repo, "content/_status"));
  assert.ok(lists.length > 0, "sign gave entries of a status list");
  assert.ok(existsSync(join(repo, "content/_log/checkpoint")), "log wrote its checkpoint");

  // "npm test: the project's own tests still pass", for those that once needed the sample content.
  const tap = await inRepo(process.execPath, "--import", "tsx", "--test", "--test-reporter=tap", ...TESTS_IN_THE_COPY);
  assert.ok(Number(/^# pass (\d+)$/m.exec(tap)?.[1]) > 0, tap);
  assert.match(tap, /^# fail 0$/m);
});
