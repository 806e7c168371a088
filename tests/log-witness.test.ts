/**
 * `manifest-resolver log` asking witnesses (issue 41): content/_log/policy names them and the quorum; log submits
 * each new checkpoint with a consistency proof from the size the witness last cosigned (learnt from a 409 when the
 * log does not know it), appends the cosignatures, and fails on a refusal or a quorum not met; check and build refuse
 * a checkpoint without a fresh quorum (log/unwitnessed, log/stale-cosignature). The witnesses are in-process
 * (support/test-witness.ts) around the real witness handler.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseCheckpoint } from "../core/tlog/checkpoint.ts";
import { openCosignatures } from "../core/tlog/cosignature.ts";
import { sameHash } from "../core/tlog/merkle.ts";
import { parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, parseVerifierKey } from "../core/tlog/note-keys.ts";
import type { NoteSigner } from "../core/tlog/note-signature.ts";
import { LOG_PREFIX } from "../core/umid-path.ts";
import { logScratch } from "./support/log-content.ts";
import { routedIn } from "./support/route-table.ts";
import { assertUsageError, printedProblems, theProblem } from "./support/problems.ts";
import { startTestWitness, type TestWitness, witnessLine } from "./support/test-witness.ts";

const { dir: scratch, logKey, cli, content, publish, logSigner } = logScratch("um-log-witness-");
const witnesses: TestWitness[] = [];
let signer: NoteSigner;

before(async () => {
  signer = await logSigner();
});
after(async () => {
  for (const witness of witnesses) await witness.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function witness(name: string): Promise<TestWitness> {
  const started = await startTestWitness(name, signer);
  witnesses.push(started);
  return started;
}

const log = (dir: string, ...args: string[]) => cli("log", "--key", logKey, "--content", dir, ...args);
const check = (dir: string) => cli("check", "--content", dir);
const checkpointOf = (dir: string) => readFileSync(join(dir, "_log", "checkpoint"), "utf8");

function writePolicy(dir: string, lines: string[]): void {
  writeFileSync(join(dir, "_log", "policy"), `${lines.join("\n")}\n`);
}

/** Content with one UMID and a log folder holding only the policy the lines make: the first log run creates the log. */
function witnessedContent(name: string, lines: string[]): string {
  const dir = content(name);
  publish(dir, "a.json", "urn:a");
  mkdirSync(join(dir, "_log"));
  writePolicy(dir, lines);
  return dir;
}

/** The names of the witnesses whose cosignature on the checkpoint of `dir` verifies. */
async function cosigners(dir: string, of: TestWitness[]): Promise<string[]> {
  const note = parseNote(checkpointOf(dir))!;
  const keys = of.map((w) => parseVerifierKey(w.vkey, COSIGNATURE_TYPE)!);
  const opened = await openCosignatures(note, keys);
  assert.ok(opened.ok);
  return opened.cosigned.map(({ key }) => key.name);
}

const rules = (text: string) =>
  printedProblems(text)
    .filter((problem) => problem.severity === "error")
    .map((problem) => problem.rule);

describe("log with witnesses", () => {
  it("has two witnesses cosign the first checkpoint, then the next, proven from the size they cosigned", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const dir = witnessedContent("two", [
      witnessLine(w1),
      witnessLine(w2),
      "group both all w1.example w2.example",
      "quorum both",
    ]);
    const first = await log(dir);
    assert.equal(first.status, 0, first.stdout + first.stderr);
    assert.deepEqual(await cosigners(dir, [w1, w2]), ["w1.example", "w2.example"]);
    assert.deepEqual(
      w1.events.map((event) => event.status),
      [200],
    );
    assert.equal((await check(dir)).status, 0);

    publish(dir, "b.json", "urn:b");
    const second = await log(dir);
    assert.equal(second.status, 0, second.stdout + second.stderr);
    // Asked from size 1, which each cosigned: no 409 on the way.
    assert.deepEqual(
      w2.events.map((event) => [event.status, event.size]),
      [
        [200, 1],
        [200, 2],
      ],
    );
    const checkpoint = parseCheckpoint(parseNote(checkpointOf(dir))!.text)!;
    assert.equal(checkpoint.size, 2);
    assert.deepEqual(await cosigners(dir, [w1, w2]), ["w1.example", "w2.example"]);
    const checked = await check(dir);
    assert.equal(checked.status, 0, checked.stdout);
    const out = join(scratch, "two", "dist");
    const built = await cli("build", "--content", dir, "--out", out, "--lookup-out", `${out}-lookup`);
    assert.equal(built.status, 0, built.stdout + built.stderr);
    // The checkpoint is served as kept: cosigned.
    const served = routedIn(out).get(`${LOG_PREFIX}/checkpoint`);
    assert.equal(served?.bytes.toString(), checkpointOf(dir));
    // A run that changes nothing asks no one: the cosignatures are fresh.
    const again = await log(dir);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.equal(w1.events.length, 2);
  });

  it("learns the size a witness cosigned from its 409, and proves consistency from there", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const dir = witnessedContent("primed", [witnessLine(w1), "quorum w1.example"]);
    assert.equal((await log(dir)).status, 0);
    // w2 was given the checkpoint of size 1 elsewhere; the log's checkpoint carries no cosignature of it.
    w2.state.set(signer.name, w1.state.get(signer.name)!);
    writePolicy(dir, [witnessLine(w1), witnessLine(w2), "group both all w1.example w2.example", "quorum both"]);
    publish(dir, "b.json", "urn:b");
    const run = await log(dir);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(
      w2.events.map((event) => [event.status, event.size]),
      [
        [409, 1],
        [200, 2],
      ],
    );
    assert.deepEqual(await cosigners(dir, [w1, w2]), ["w1.example", "w2.example"]);
    assert.equal((await check(dir)).status, 0);
  });

  it("fails on a forked log: the witness refuses it, log exits 1 naming it, and check and build refuse", async () => {
    const w1 = await witness("w1.example");
    // The same key logged another history elsewhere, and w1 cosigned that one.
    const other = witnessedContent("fork-other", [witnessLine(w1), "quorum w1.example"]);
    publish(other, "a.json", "urn:a", { subject: "did:web:other.example" });
    assert.equal((await log(other)).status, 0);
    const dir = witnessedContent("fork", [witnessLine(w1), "quorum w1.example"]);
    const run = await log(dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const refusal = printedProblems(run.stderr).find((problem) => problem.message.includes(w1.url));
    assert.equal(refusal?.rule, "log/unwitnessed", run.stderr);
    assert.deepEqual(
      w1.events.slice(-2).map((event) => event.status),
      [409, 422],
    );
    // The witness still holds the other history: nothing of this one was cosigned.
    const held = w1.state.get(signer.name)!;
    assert.ok(sameHash(held.rootHash, parseCheckpoint(parseNote(checkpointOf(other))!.text)!.rootHash));
    const checked = await check(dir);
    assert.equal(checked.status, 1);
    assert.deepEqual(rules(checked.stdout), ["log/unwitnessed"]);
    const out = join(scratch, "fork", "dist");
    const built = await cli("build", "--content", dir, "--out", out, "--lookup-out", `${out}-lookup`);
    assert.equal(built.status, 1);
    assert.ok(rules(built.stdout).includes("log/unwitnessed"), built.stdout);
    assert.equal(existsSync(out), false);
  });

  it("fails when a quorum of all is not met with a witness down, and completes once it is back", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const dir = witnessedContent("down", [
      witnessLine(w1),
      witnessLine(w2),
      "group both all w1.example w2.example",
      "quorum both",
    ]);
    const url2 = w2.url;
    await w2.stop();
    const run = await log(dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.deepEqual(rules(run.stderr), ["log/unwitnessed"]);
    assert.deepEqual(await cosigners(dir, [w1, w2]), ["w1.example"]);
    assert.deepEqual(rules((await check(dir)).stdout), ["log/unwitnessed"]);
    // Back at another address: the policy follows it, and a run that changes nothing asks it alone.
    const back = await witness("w2.example-back");
    writePolicy(dir, [witnessLine(w1), witnessLine(back), "group both all w1.example w2.example-back", "quorum both"]);
    assert.notEqual(back.url, url2);
    const asked = w1.events.length;
    const completed = await log(dir);
    assert.equal(completed.status, 0, completed.stdout + completed.stderr);
    assert.equal(w1.events.length, asked);
    assert.equal((await check(dir)).status, 0);
  });

  it("succeeds with a witness down when the others make the quorum", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const dir = witnessedContent("any", [
      witnessLine(w1),
      witnessLine(w2),
      "group either any w1.example w2.example",
      "quorum either",
    ]);
    await w2.stop();
    const run = await log(dir);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal((await check(dir)).status, 0);
  });

  it("asks only the witnesses --witness names, each a witness of the policy", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const dir = witnessedContent("chosen", [
      witnessLine(w1),
      witnessLine(w2),
      "group either any w1.example w2.example",
      "quorum either",
    ]);
    const run = await log(dir, "--witness", w2.url);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(w1.events.length, 0);
    assert.deepEqual(await cosigners(dir, [w1, w2]), ["w2.example"]);
    assertUsageError(
      await log(dir, "--witness", "https://elsewhere.example/"),
      "--witness",
      "https://elsewhere.example/",
    );
    const unwitnessed = content("no-policy");
    publish(unwitnessed, "a.json", "urn:a");
    assertUsageError(await log(unwitnessed, "--witness", w1.url), "--witness");
  });

  it("refuses a cosignature line edited in the checkpoint, and a log run that changes nothing restores it", async () => {
    const w1 = await witness("w1.example");
    const dir = witnessedContent("edited", [witnessLine(w1), "quorum w1.example"]);
    assert.equal((await log(dir)).status, 0);
    const file = join(dir, "_log", "checkpoint");
    const lines = checkpointOf(dir).split("\n");
    const last = lines.length - 2;
    const at = lines[last]!.length - 5;
    lines[last] = lines[last]!.slice(0, at) + (lines[last]![at] === "A" ? "B" : "A") + lines[last]!.slice(at + 1);
    writeFileSync(file, lines.join("\n"));
    assert.deepEqual(rules((await check(dir)).stdout), ["log/unverifiable"]);
    const run = await log(dir);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    // It held no cosignature it could trust, so it asked from 0 and learnt the size from the 409.
    assert.deepEqual(
      w1.events.map((event) => event.status),
      [200, 409, 200],
    );
    assert.equal((await check(dir)).status, 0);
  });

  it("refuses a policy that does not parse, naming its line and column", async () => {
    const w1 = await witness("w1.example");
    const dir = witnessedContent("bad-policy", [witnessLine(w1), "quorum w9.example"]);
    const run = await log(dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const problem = theProblem(run.stderr, "log/bad-policy");
    assert.deepEqual([problem.line, problem.column], [2, 8]);
    assert.equal(existsSync(join(dir, "_log", "checkpoint")), false);
    assert.equal(w1.events.length, 0);
    const checked = await check(dir);
    assert.equal(checked.status, 1);
    // And the log it would make is missing: log/stale says so beside it.
    assert.deepEqual(rules(checked.stdout).sort(), ["log/bad-policy", "log/stale"]);
  });

  it("finds cosignatures too old stale, and a log run that changes nothing renews them", async () => {
    const w1 = await witness("w1.example");
    const dir = witnessedContent("stale", [witnessLine(w1), "quorum w1.example"]);
    const fortyDaysAgo = Math.floor(Date.now() / 1000) - 40 * 24 * 60 * 60;
    w1.clock = () => fortyDaysAgo;
    assert.equal((await log(dir)).status, 1);
    const checked = await check(dir);
    assert.deepEqual(rules(checked.stdout), ["log/stale-cosignature"]);
    w1.clock = () => Math.floor(Date.now() / 1000);
    const renewed = await log(dir);
    assert.equal(renewed.status, 0, renewed.stdout + renewed.stderr);
    // Asked again from the size it cosigned: the checkpoint is the same.
    assert.deepEqual(
      w1.events.map((event) => [event.status, event.size]),
      [
        [200, 1],
        [200, 1],
      ],
    );
    assert.equal((await check(dir)).status, 0);
  });

  it("refuses a cosignature dated in the future, and keeps asking that witness until it answers one of now", async () => {
    const w1 = await witness("w1.example");
    const dir = witnessedContent("future", [witnessLine(w1), "quorum w1.example"]);
    const nextYear = Math.floor(Date.now() / 1000) + 365 * 24 * 60 * 60;
    w1.clock = () => nextYear;
    const run = await log(dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.deepEqual([...new Set(rules(run.stderr))], ["log/unwitnessed"]);
    assert.equal((await check(dir)).status, 1);
    w1.clock = () => Math.floor(Date.now() / 1000);
    const renewed = await log(dir);
    assert.equal(renewed.status, 0, renewed.stdout + renewed.stderr);
    assert.equal((await check(dir)).status, 0);
  });

  it("warns under check --base when the policy changes or is removed: it decides what is served", async () => {
    const [w1, w2] = [await witness("w1.example"), await witness("w2.example")];
    const both = [witnessLine(w1), witnessLine(w2), "group both all w1.example w2.example", "quorum both"];
    const dir = witnessedContent("history", both);
    assert.equal((await log(dir)).status, 0);
    const git = (...args: string[]) =>
      execFileSync(
        "git",
        ["-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", ...args],
        { cwd: join(scratch, "history"), encoding: "utf8" },
      ).trim();
    git("init", "-q");
    git("add", "content");
    git("commit", "-q", "-m", "base");
    const base = git("rev-parse", "HEAD");
    const warnings = async () => {
      const run = await cli("check", "--offline", "--content", dir, "--base", base);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      return printedProblems(run.stdout)
        .filter((problem) => problem.severity === "warning")
        .map((problem) => [problem.file.replace(/^.*?content\//, ""), problem.rule]);
    };
    assert.deepEqual(await warnings(), []);
    // A quorum of one: what both witnesses cosigned still passes, but the policy asks for less.
    writePolicy(dir, [...both.slice(0, 3), "quorum w1.example"]);
    assert.deepEqual(await warnings(), [["_log/policy", "history/log-policy-changed"]]);
    rmSync(join(dir, "_log", "policy"));
    assert.deepEqual(await warnings(), [[`_log/policy@${base}`, "history/log-policy-changed"]]);
  });
});
