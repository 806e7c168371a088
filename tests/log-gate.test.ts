/**
 * The gate (issue 26, section 3): `check` and `build` refuse content whose transparency log (content/_log/) does not
 * verify or does not record what the content serves, a refused build leaving the previous output as it was; and
 * `check --base REV` refuses a log that is not an append-only extension of the log committed at REV (C2SP
 * tlog-checkpoint: a log must not sign a checkpoint inconsistent with one it signed).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { utf8 } from "../core/base64url.ts";
import { fileDigests, writeFiles } from "./support/file-tree.ts";
import { logScratch, signedLog } from "./support/log-content.ts";
import { printedProblems } from "./support/problems.ts";

const { dir: scratch, logKey, pem, cli, content, publish, loggedThenEdited, logSigner } = logScratch("um-log-gate-");
after(() => rmSync(scratch, { recursive: true, force: true }));

/** `check --json` of the content folder `dir` (and `args`): its exit status and the rules of its errors. */
async function checkRules(dir: string, ...args: string[]): Promise<{ status: number | null; rules: string[] }> {
  const run = await cli("check", "--offline", "--json", "--content", dir, ...args);
  const rules = run.stdout
    .trim()
    .split("\n")
    .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
  return { status: run.status, rules };
}

const logged = async (dir: string, key = logKey) => {
  const run = await cli("log", "--key", key, "--content", dir);
  assert.equal(run.status, 0, run.stderr + run.stdout);
};

/** Writes `files` (by path under the log's folder) into the content folder `dir`'s log. */
const writeLogFiles = (dir: string, files: Map<string, Uint8Array>) =>
  writeFiles(join(dir, "_log"), Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes)])));

/**
 * Content `name` with one UMID logged, its log then replaced by one the log's key signed over `entries` (the key
 * holder's, or a stolen key's), which `umids` name, if a map can be made of them.
 */
async function signedOver(name: string, entries: string[], umids?: string[]): Promise<string> {
  const dir = content(name);
  publish(dir, "a.json", "urn:a");
  await logged(dir);
  rmSync(join(dir, "_log", "tile"), { recursive: true });
  writeLogFiles(dir, await signedLog(await logSigner(), entries.map(utf8), umids));
  return dir;
}

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
    const human = await cli("check", "--offline", "--content", dir);
    assert.match(
      human.stdout,
      /_log\/checkpoint - error log\/stale: 2 UMIDs' served state .*"urn:a".*run manifest-resolver log/,
    );
    await logged(dir);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
  });

  it("refuses content that stopped serving a logged UMID with log/unserved, in check and log alike", async () => {
    const dir = content("gate-unserved");
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    await logged(dir);
    // urn:b's manifest edited after signing: its own error says why it is not served.
    const file = join(dir, "b.json");
    const signedB = readFileSync(file, "utf8");
    writeFileSync(file, signedB.replace("2030-01-01", "2031-01-01"));
    const refused = await checkRules(dir);
    assert.ok(!refused.rules.includes("log/unserved") && refused.rules.some((rule) => rule.startsWith("signature/")));
    // urn:b's manifest deleted: the resolver answers 404, while its latest entry still vouches for its body, which a
    // client with the log key would accept from anyone who replays it.
    unlinkSync(join(dir, "b.json"));
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unserved"] });
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /_log\/checkpoint - error log\/unserved: .*"urn:b"/);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
    // Revoked instead, the UMID has a state the log records.
    assert.equal((await cli("revoke", "urn:b", "--unpublished", "--content", dir)).status, 0);
    await logged(dir);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
  });

  it("refuses a log whose old entry was edited, with log/unverifiable", async () => {
    const dir = await loggedThenEdited("gate-edited");
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unverifiable"] });
  });

  it("refuses, with log/unverifiable and no stack trace, a file where the log's folder or a tile's should be", async () => {
    const dir = content("gate-file");
    publish(dir, "a.json", "urn:a");
    writeFileSync(join(dir, "_log"), "not a folder");
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unverifiable"] });
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /_log - error log\/unverifiable: is not a folder/);

    const tiled = content("gate-tile-file");
    publish(tiled, "a.json", "urn:a");
    await logged(tiled);
    rmSync(join(tiled, "_log", "tile", "0"), { recursive: true });
    writeFileSync(join(tiled, "_log", "tile", "0"), "not a folder");
    assert.deepEqual(await checkRules(tiled), { status: 1, rules: ["log/unverifiable"] });
  });

  it("refuses, with log/unverifiable and no stack trace, a signed entry holding a lone surrogate", async () => {
    // JCS cannot spell the UMID "\ud800": reading the entry threw a TypeError out of check, build and log.
    const dir = await signedOver("gate-surrogate", ['{"state":"revoked","umid":"\\ud800"}']);
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unverifiable"] });
    const human = await cli("check", "--offline", "--content", dir);
    assert.match(
      human.stdout,
      /_log\/tile\/entries\/000\.p\/1 - error log\/unverifiable: .*an entry this log does not write/,
    );
    assert.equal(human.stderr, "");
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, / - error log\/unverifiable: /);
    assert.doesNotMatch(run.stderr, /TypeError|\n +at /);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
  });

  it("judges the log of a content folder given as PATH as check of the folder does", async () => {
    // check PATH on the content folder skipped the gate, though --help says it is judged as the build judges it.
    const dir = content("gate-path");
    publish(dir, "a.json", "urn:a");
    await logged(dir);
    publish(dir, "a.json", "urn:a", { subject: "did:web:changed.example" });
    const asPath = async (...args: string[]) => {
      const run = await cli("check", "--offline", "--json", ...args);
      const rules = run.stdout
        .trim()
        .split("\n")
        .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
      return { status: run.status, rules };
    };
    assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/stale"] });
    assert.deepEqual(await asPath(dir), { status: 1, rules: ["log/stale"] });
    assert.deepEqual(await asPath("--content", dir, dir), { status: 1, rules: ["log/stale"] });
    // A file or folder in it is not the whole content: what it serves is not all there, so its log is not judged.
    assert.deepEqual(await asPath("--content", dir, join(dir, "a.json")), { status: 0, rules: [] });
  });

  it("refuses an edited tile or bundle of an earlier tree size, which clients holding its checkpoint read", async () => {
    const dir = content("gate-earlier");
    for (const umid of ["urn:a", "urn:b", "urn:c"]) publish(dir, `${umid.slice(4)}.json`, `urn:${umid.slice(4)}`);
    await logged(dir);
    publish(dir, "d.json", "urn:d");
    await logged(dir);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    for (const path of ["tile/entries/000.p/3", "tile/0/000.p/3"]) {
      const file = join(dir, "_log", path);
      const kept = readFileSync(file);
      const edited = Buffer.from(kept);
      edited[edited.length - 3]! ^= 1;
      writeFileSync(file, edited);
      assert.deepEqual(await checkRules(dir), { status: 1, rules: ["log/unverifiable"] }, path);
      const human = await cli("check", "--offline", "--content", dir);
      assert.match(human.stdout, new RegExp(`_log/${path.replaceAll(".", "\\.")} - error log/unverifiable: `), path);
      writeFileSync(file, kept);
    }
    // A file past the checkpoint's tree, as a run killed before its checkpoint leaves, is no file of the log.
    writeFileSync(join(dir, "_log", "tile", "entries", "000.p", "9"), "left by a killed run");
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
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

  it("refuses a signed entry holding a lone surrogate with log/unverifiable, and writes nothing", async () => {
    await signedOver("build-surrogate", ['{"state":"revoked","umid":"\\ud800"}']);
    const refused = await build("build-surrogate");
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unverifiable"]], refused.output);
    assert.equal(existsSync(join(scratch, "build-surrogate", "dist")), false);
  });

  it("refuses a log whose old bundle was edited with log/unverifiable, and writes nothing", async () => {
    await loggedThenEdited("build-edited");
    const refused = await build("build-edited");
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unverifiable"]], refused.output);
    assert.equal(existsSync(join(scratch, "build-edited", "dist")), false);
  });
});

describe("check --base: the log must extend the log at REV (issue 26, section 3; C2SP tlog-checkpoint)", () => {
  /**
   * A git repository `name` whose content folder serves urn:a and urn:b, logged, committed: its folder and the commit.
   * `before` runs first, to make another base.
   */
  const committed = async (name: string, before?: (dir: string) => Promise<void>) => {
    const dir = content(name);
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    await logged(dir);
    await before?.(dir);
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        ["-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", ...args],
        { cwd: join(scratch, name), encoding: "utf8" },
      ).trim();
    git("init", "-q");
    git("add", "content");
    git("commit", "-q", "-m", "base");
    return { dir, base: git("rev-parse", "HEAD") };
  };
  /** A new body for urn:a, a new UMID urn:c: a change log records as two entries. */
  const change = (dir: string) => {
    publish(dir, "a.json", "urn:a", { subject: "did:web:changed.example" });
    publish(dir, "c.json", "urn:c");
  };

  it("accepts an honest append: the change logged on top of REV's log", async () => {
    const { dir, base } = await committed("base-append");
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 0, rules: [] });
    change(dir);
    assert.equal((await cli("suspend", "urn:b", "--content", dir)).status, 0);
    await logged(dir);
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 0, rules: [] });
  });

  it("refuses a log rewritten from scratch with the same key, naming content/_log/checkpoint", async () => {
    const { dir, base } = await committed("base-rewritten");
    change(dir);
    rmSync(join(dir, "_log"), { recursive: true });
    await logged(dir);
    // The log verifies and records what the content serves: only REV's checkpoint shows it rewritten.
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 1, rules: ["log/rewritten"] });
    const human = await cli("check", "--offline", "--content", dir, "--base", base);
    const problems = printedProblems(human.stdout).map((p) => [p.file, p.rule]);
    assert.deepEqual(problems, [[relative(scratch, join(dir, "_log", "checkpoint")), "log/rewritten"]], human.stdout);
  });

  it("refuses a log truncated to an earlier checkpoint", async () => {
    const earlier = join(scratch, "base-truncated", "earlier");
    const { dir, base } = await committed("base-truncated", async (folder) => {
      cpSync(folder, earlier, { recursive: true });
      publish(folder, "a.json", "urn:a", { subject: "did:web:changed.example" });
      await logged(folder);
    });
    // The content and its log as they were before REV's last log run: consistent with each other, not with REV.
    rmSync(dir, { recursive: true });
    cpSync(earlier, dir, { recursive: true });
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 1, rules: ["log/rewritten"] });
  });

  it("refuses a log removed, or made again with another key", async () => {
    const { dir, base } = await committed("base-removed");
    rmSync(join(dir, "_log"), { recursive: true });
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 1, rules: ["log/rewritten"] });
    await logged(dir, pem("another-log.pem"));
    assert.deepEqual(await checkRules(dir, "--base", base), { status: 1, rules: ["log/rewritten"] });
  });

  it("refuses to compare with a log at REV that does not verify, naming its file there", async () => {
    const verifier = (dir: string) => join(dir, "_log", "verifier");
    let good = "";
    const { dir, base } = await committed("base-unverifiable", async (folder) => {
      good = readFileSync(verifier(folder), "utf8");
      writeFileSync(verifier(folder), "not a verifier key\n");
    });
    writeFileSync(verifier(dir), good);
    assert.deepEqual(await checkRules(dir), { status: 0, rules: [] });
    const human = await cli("check", "--offline", "--content", dir, "--base", base);
    const problems = printedProblems(human.stdout).map((p) => [p.file, p.rule]);
    assert.deepEqual(problems, [[`${relative(scratch, verifier(dir))}@${base}`, "log/rewritten"]], human.stdout);
  });
});
