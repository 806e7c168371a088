/**
 * `--help` of a command loads its declaration only (issue 38, part 5): the files of the prebuilt CLI (lib/cli/, `npm
 * run build:cli`) that `manifest-resolver COMMAND --help` loads are the CLI's entry, the framework, the command's
 * declaration and what it imports, and never the module that runs a command. Each file is one the loader must find,
 * read and compile at every start.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { COMMANDS } from "../scripts/commands/main.ts";
import { CLI, ROOT } from "./support/paths.ts";
import { runCommand } from "./support/processes.ts";

/** Of the ~100 files of the bundle: the entry, the framework, a declaration and the few small modules it names. */
const MOST_FILES_LOADED = 15;

/** The modules that run a command, by the name esbuild gives their files (`build-HASH.js` for build.ts). */
const RUN_MODULES = readdirSync(join(ROOT, "scripts", "commands"))
  .filter((name) => name.endsWith("-declaration.ts"))
  .map((name) => name.slice(0, -"-declaration.ts".length));

async function filesLoaded(args: string[]): Promise<string[]> {
  const hook = join(ROOT, "tests", "support", "log-loads.mjs");
  const run = await runCommand(process.execPath, ["--import", hook, CLI, ...args], ROOT, process.env);
  assert.equal(run.status, 0, run.stderr);
  const files = [...run.stderr.matchAll(/^loaded (.*)$/gm)].map((match) => match[1]!);
  assert.ok(files.includes("cli.js"), "the prebuilt CLI ran (run npm run build:cli if the sources are newer)");
  return files;
}

test("every command's --help loads its declaration and a few files, and no module that runs a command", async () => {
  for (const { name } of COMMANDS) {
    const files = await filesLoaded([name, "--help"]);
    assert.ok(files.length <= MOST_FILES_LOADED, `${name} --help loads ${files.length} files: ${files.join(" ")}`);
    assert.ok(
      files.some((file) => /-declaration-[A-Z0-9]+\.js$/.test(file)),
      `${name} --help loads a declaration: ${files.join(" ")}`,
    );
    const runs = files.filter((file) =>
      RUN_MODULES.some((module) => new RegExp(`^${module}-[A-Z0-9]+\\.js$`).test(file)),
    );
    assert.deepEqual(runs, [], `${name} --help loads no command's run`);
  }
});

test("the overview loads no command at all", async () => {
  const files = await filesLoaded(["--help"]);
  assert.deepEqual(
    files.filter((file) => file.includes("-declaration-")),
    [],
  );
});
