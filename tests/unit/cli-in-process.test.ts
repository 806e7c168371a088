/**
 * The CLI run in the test's process (tests/support/cli-in-process.ts) is the CLI a spawned run is: the same status
 * and output, in its own working directory and environment, runs taking turns, and the process given back as it was.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCliInProcess } from "../support/cli-in-process.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { runCli } from "../support/processes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-cli-in-process-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder `name` with a content folder of one signed manifest and one file that is not JSON, named by `name`. */
function project(name: string): string {
  const root = join(scratch, name);
  mkdirSync(join(root, "content"), { recursive: true });
  writeFileSync(join(root, "content", "signed.json"), JSON.stringify(signed(manifestFor(`urn:${name}`), newKey())));
  writeFileSync(join(root, "content", `broken-${name}.json`), "{");
  return root;
}

describe("the CLI in this process", () => {
  const root = project("same");

  for (const args of [
    ["check", "content", "--no-verification-cache"],
    ["check", "content", "--json", "--no-verification-cache"],
    ["check", "--no-such-option"],
    ["explain", "json/syntax"],
    ["no-such-command"],
  ]) {
    it(`prints what a process of its own prints, with its status: ${args.join(" ")}`, async () => {
      const env = { UM_RESOLVER_URL: "" };
      const [here, apart] = [await runCliInProcess(args, root, env), await runCli(args, root, env)];
      assert.notEqual(here.stdout + here.stderr, "");
      assert.deepEqual(here, apart);
    });
  }

  it("prints what `new` writes to its stdout", async () => {
    const args = ["new", "--subject", "did:web:printed.example"];
    const [here, apart] = [await runCliInProcess(args, root), await runCli(args, root)];
    // A fresh UMID and the time now: the same members, and the same subject.
    const members = (stdout: string) => {
      const manifest = JSON.parse(stdout) as Record<string, unknown>;
      return [Object.keys(manifest), manifest.subject];
    };
    assert.deepEqual([here.status, members(here.stdout)], [apart.status, members(apart.stdout)]);
    assert.equal(here.status, 0, here.stderr);
  });

  it("gives the process back as it was: working directory, environment, console and streams", async () => {
    const before = {
      cwd: process.cwd(),
      env: { ...process.env },
      console: globalThis.console,
      write: process.stdout.write,
      isTTY: process.stdout.isTTY,
    };
    process.env.UM_TEST_UNSET = "set";
    try {
      const run = await runCliInProcess(["check", "content", "--no-verification-cache"], root, {
        UM_TEST_ADDED: "1",
        UM_TEST_UNSET: undefined,
      });
      assert.equal(run.status, 1, run.stdout + run.stderr);
      assert.deepEqual(
        {
          cwd: process.cwd(),
          env: { ...process.env },
          console: globalThis.console,
          write: process.stdout.write,
          isTTY: process.stdout.isTTY,
        },
        { ...before, env: { ...before.env, UM_TEST_UNSET: "set" } },
      );
    } finally {
      delete process.env.UM_TEST_UNSET;
    }
  });

  it("runs started together take turns, each in its own folder", async () => {
    const [one, two] = [project("one"), project("two")];
    const runs = await Promise.all([
      runCliInProcess(["check", "content", "--no-verification-cache"], one),
      runCliInProcess(["check", "content", "--no-verification-cache"], two),
    ]);
    assert.deepEqual(
      runs.map((run) => [run.status, run.stdout.includes("broken-one.json"), run.stdout.includes("broken-two.json")]),
      [
        [1, true, false],
        [1, false, true],
      ],
    );
  });
});
