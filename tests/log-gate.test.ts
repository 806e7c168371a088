/**
 * The gate (issue 26, section 3): `check` and `build` refuse content whose transparency log (content/_log/) does not
 * verify or does not record what the content serves, a refused build leaving the previous output as it was.
 */
import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileDigests } from "./support/file-tree.ts";
import { logScratch } from "./support/log-content.ts";
import { printedProblems } from "./support/problems.ts";

const { dir: scratch, logKey, cli, content, publish, loggedThenEdited } = logScratch("um-log-gate-");
after(() => rmSync(scratch, { recursive: true, force: true }));

/** `check --json` of the content folder `dir` (and `args`): its exit status and the rules of its errors. */
async function checkRules(dir: string, ...args: string[]): Promise<{ status: number | null; rules: string[] }> {
  const run = await cli("check", "--json", "--content", dir, ...args);
  const rules = run.stdout
    .trim()
    .split("\n")
    .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
  return { status: run.status, rules };
}

const logged = async (dir: string) => {
  const run = await cli("log", "--key", logKey, "--content", dir);
  assert.equal(run.status, 0, run.stderr + run.stdout);
};

describe("the gate: check of content that has a log (issue 26, section 3)", () => {
  it("passes content whose log records what it serves, and refuses a stale log with log/stale", async () => {
    const dir = content("gate-stale");
    publish(dir, "a.json", "urn:a");
    await logged(dir);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    // A new body for urn:a, and a new UMID, without running log: the log is stale.
    publish(dir, "a.json", "urn:a", { subject: "did:web:changed.example" });
    publish(dir, "b.json", "urn:b");
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/stale"] });
    const human = await cli("check", "--content", dir);
    assert.match(
      human.stdout,
      /_log\/checkpoint - error log\/stale: 2 UMIDs' served state .*"urn:a".*run manifest-resolver log/,
    );
    await logged(dir);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
  });

  it("refuses a log whose old entry was edited, with log/unverifiable", async () => {
    const dir = await loggedThenEdited("gate-edited");
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unverifiable"] });
  });

  it("judges no log where there is none", async () => {
    const dir = content("gate-none");
    publish(dir, "a.json", "urn:a");
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
  });
});

describe("the gate: build of content that has a log (issue 26, section 3)", () => {
  /** `build` of `name`'s content folder into `name`/dist and `name`/lookup: its exit status and its errors' rules. */
  const build = async (name: string) => {
    const run = await cli(
      "build",
      "--content",
      join(scratch, name, "content"),
      "--out",
      join(scratch, name, "dist"),
      "--lookup-out",
      join(scratch, name, "lookup"),
    );
    return { status: run.status, rules: printedProblems(run.stdout).map((p) => p.rule), output: run.stdout };
  };

  it("refuses a stale log with log/stale, leaving the previous output as it was; builds it once logged", async () => {
    const dir = content("build-stale");
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    await logged(dir);
    const first = await build("build-stale");
    assert.deepEqual([first.status, first.rules], [0, []], first.output);
    const outputs = () =>
      [join(scratch, "build-stale", "dist"), join(scratch, "build-stale", "lookup")].map(fileDigests);
    const built = outputs();
    // One manifest changed after log: its new body is in no entry.
    publish(dir, "a.json", "urn:a", { subject: "did:web:changed.example" });
    const refused = await build("build-stale");
    assert.deepEqual([refused.status, refused.rules], [1, ["log/stale"]], refused.output);
    assert.deepEqual(outputs(), built);
    await logged(dir);
    const again = await build("build-stale");
    assert.deepEqual([again.status, again.rules], [0, []], again.output);
    assert.notDeepEqual(outputs(), built);
  });

  it("refuses a log whose old bundle was edited with log/unverifiable, and writes nothing", async () => {
    await loggedThenEdited("build-edited");
    const refused = await build("build-edited");
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unverifiable"]], refused.output);
    assert.equal(existsSync(join(scratch, "build-edited", "dist")), false);
  });
});
