/**
 * How `check` prints problems at scale and for people (issue 12): capped at 50 with a line
 * saying how many more, `--max-problems`, counts by rule, GitHub's 10 annotations per
 * severity and a notice for the rest, code frames and colour on a terminal only, sorted
 * places, fix hints.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { FIXTURE_KEY_REF, manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { CLI } from "./support/paths.ts";
import { assertUsageError, printedProblems } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-cli-output-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The CLI in `scratch`, in this process, in a pipe, with no colour or CI setting of the test's own environment. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const unset = { FORCE_COLOR: undefined, NO_COLOR: undefined, GITHUB_ACTIONS: undefined, CI: undefined };
  const result = await runCliInProcess(args, scratch, { ...unset, ...env });
  return { ...result, lines: result.stdout.trimEnd().split("\n") };
}

const key = newKey();
const FILES = 500;
const broken = "broken";
mkdirSync(join(scratch, broken));
writeFileSync(join(scratch, broken, "_keys.json"), JSON.stringify(pinning(key), null, 2));
for (let i = 0; i < FILES; i++) {
  const name = `m${String(i).padStart(3, "0")}.json`;
  // Even: edited after signing; odd: signed without a member the format requires.
  const manifest =
    i % 2 === 0
      ? { ...signed(manifestFor(`urn:broken:${i}`), key), subject: "did:web:edited.example" }
      : signed(manifestFor(`urn:broken:${i}`, { expiresAt: undefined }), key);
  writeFileSync(join(scratch, broken, name), `${JSON.stringify(manifest, null, 2)}\n`);
}
const problemLines = (lines: string[]) => lines.filter((line) => / - error /.test(line));

describe(`check over ${FILES} broken manifests`, () => {
  let capped: Awaited<ReturnType<typeof cli>>;
  before(async () => {
    capped = await cli(["check", "--offline", broken]);
  });

  it("prints the first 50 problems, then how many more, the counts by rule and the summary; exit 1", async () => {
    assert.equal(capped.status, 1);
    const shown = problemLines(capped.lines);
    assert.equal(shown.length, 50);
    assert.match(shown[0]!, /^broken\/m000\.json:15:14 - error signature\/invalid: /);
    const [second] = printedProblems(shown[1]!);
    assert.deepEqual(
      [second!.file, second!.rule, second!.line, second!.column],
      ["broken/m001.json", "schema/required", 1, 1],
    );
    assert.ok(second!.message.includes('"expiresAt"'), second!.message);
    assert.deepEqual(capped.lines.slice(-3), [
      "… and 450 more problems not shown (--max-problems 0 shows all)",
      "Errors by rule: schema/required ×250, signature/invalid ×250.",
      `Checked ${FILES} manifests and 1 list file: ${FILES} errors in ${FILES} files.`,
    ]);
  });

  it("--max-problems 0 prints them all, N prints N; anything else is a usage error", async () => {
    const all = await cli(["check", "--offline", broken, "--max-problems", "0"]);
    assert.equal(all.status, 1);
    assert.equal(problemLines(all.lines).length, FILES);
    // The line saying how many more (worded in the test above) is there only when some are left out.
    const leftOut = (lines: string[]) => lines.filter((line) => line.startsWith("… "));
    assert.deepEqual(leftOut(all.lines), []);
    const three = await cli(["check", "--offline", broken, "--max-problems", "3"]);
    assert.equal(problemLines(three.lines).length, 3);
    assert.equal(leftOut(three.lines).length, 1);
    assert.ok(leftOut(three.lines)[0]!.startsWith("… and 497 "), three.stdout);
    assertUsageError(await cli(["check", "--offline", broken, "--max-problems", "all"]), "--max-problems", "'all'");
  });

  it("says what fixes an edited manifest: the sign command, with the keyRef the manifest names", async () => {
    const at = capped.lines.findIndex((line) => line.startsWith("broken/m000.json:15:14"));
    const hint = capped.lines[at + 1]!;
    assert.ok(hint.startsWith("  hint: "), hint);
    assert.ok(
      hint.endsWith(`: manifest-resolver sign broken/m000.json --key <your key> --key-ref ${FIXTURE_KEY_REF}`),
      hint,
    );
  });

  it(
    "under GitHub Actions, annotates the first 10 errors (all GitHub shows) and then " +
      "says, once, how many more by rule",
    async () => {
      const result = await cli(["check", "--offline", broken], { GITHUB_ACTIONS: "true" });
      const errors = result.lines.filter((line) => line.startsWith("::error "));
      assert.equal(errors.length, 10);
      assert.match(errors[0]!, /^::error file=broken\/m000\.json,line=15,col=14,title=signature\/invalid::/);
      assert.deepEqual(
        result.lines.filter((line) => line.startsWith("::notice")),
        [
          "::notice title=490 more problems::490 more problems not annotated (GitHub shows " +
            "10 errors and 10 warnings per step): schema/required ×245, signature/invalid " +
            "×245; 'manifest-resolver check --max-problems 0' prints them all",
        ],
      );
    },
  );

  it("prints no progress line into a pipe", () => assert.equal(capped.stderr, ""));
});

describe("check for a person at a terminal", () => {
  const dir = "one";
  mkdirSync(join(scratch, dir));
  writeFileSync(join(scratch, dir, "_keys.json"), JSON.stringify(pinning(key), null, 2));
  writeFileSync(
    join(scratch, dir, "edited.json"),
    `${JSON.stringify({ ...signed(manifestFor("urn:edited"), key), subject: "did:web:edited.example" }, null, 2)}\n`,
  );

  it("FORCE_COLOR: the problem in colour, its source line and a caret under its column", async () => {
    const result = await cli(["check", "--offline", dir], { FORCE_COLOR: "1" });
    const [problem] = result.lines;
    assert.ok(
      problem!.startsWith(
        "\x1b[36mone/edited.json\x1b[39m\x1b[33m:15:14\x1b[39m - \x1b[31merror\x1b[39m " +
          "\x1b[2msignature/invalid\x1b[22m: ",
      ),
      problem,
    );
    assert.ok(problem!.endsWith(" at /signature/value"), problem);
    assert.match(result.lines[1]!, /^ 15 \| {5}"value": "[\w-]+"$/);
    assert.equal(result.lines[2], `    | ${" ".repeat(13)}\x1b[31m^\x1b[39m`);
    assert.ok(result.lines[3]!.startsWith("  \x1b[36mhint:\x1b[39m "), result.lines[3]);
    assert.ok(result.lines[3]!.includes("manifest-resolver sign one/edited.json"), result.lines[3]);
  });

  it("in a pipe, or with NO_COLOR, plain: no frame, no escape codes", async () => {
    for (const env of [{}, { NO_COLOR: "1" }]) {
      const result = await cli(["check", "--offline", dir], env);
      assert.equal(result.status, 1);
      assert.doesNotMatch(result.stdout, /\x1b|^ 15 \|/m, JSON.stringify(env));
      assert.match(result.lines[0]!, /^one\/edited\.json:15:14 - error signature\/invalid: /);
    }
  });

  const noScript = spawnSync("script", ["--version"]).error !== undefined && "script(1) of util-linux is not installed";
  it("on a terminal, in colour; with FORCE_COLOR=0 or false, the frame without colour", {
    skip: noScript,
  }, async () => {
    // script(1) runs the CLI on a pseudo-terminal: stdout is a TTY there.
    const atTerminal = (env: Record<string, string>) => {
      const command = [process.execPath, CLI, "check", dir].map((word) => `'${word}'`).join(" ");
      const inherited = { ...process.env };
      for (const name of ["FORCE_COLOR", "NO_COLOR", "GITHUB_ACTIONS", "CI"]) delete inherited[name];
      const result = spawnSync("script", ["-qec", command, "/dev/null"], {
        cwd: scratch,
        encoding: "utf8",
        env: { ...inherited, ...env },
      });
      assert.equal(result.status, 1, result.stdout + result.stderr);
      return result.stdout;
    };
    assert.match(atTerminal({}), /\x1b\[31merror\x1b\[39m/, "the pseudo-terminal is one");
    for (const FORCE_COLOR of ["0", "false"]) {
      const output = atTerminal({ FORCE_COLOR });
      assert.doesNotMatch(output, /\x1b\[\d+m/, `FORCE_COLOR=${FORCE_COLOR}`);
      assert.match(output, /^ 15 \| /m, "the frame stays: it is not colour");
    }
  });
});
