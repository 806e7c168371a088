/**
 * Commands' options and arguments, declared once (scripts/cli/options.ts,
 * positionals.ts): read as their declared types, with their defaults; integers within
 * bounds; JSON by the strict parser; usage errors (exit 2) naming the option and what it
 * wants; and a --help that lists every declared option, for a sample command and for each
 * of the CLI's.
 */
import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
import { COMMANDS } from "../../scripts/commands/main.ts";
import { type Command, type CommandRun, declareCommand, defineCommand } from "../../scripts/cli/command.ts";
import { runCommand } from "../../scripts/cli/dispatch.ts";
import {
  booleanOption,
  durationOption,
  integerOption,
  jsonOption,
  listOption,
  stringOption,
} from "../../scripts/cli/options.ts";
import { UsageError } from "../../scripts/cli/exit-status.ts";
import { readPositionals } from "../../scripts/cli/positionals.ts";

/** Whether A and B are the same type (not merely assignable one to the other). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

let received: unknown;

const declared = declareCommand({
  name: "sample",
  description: "Records what it was given.",
  epilogue: "Exit status: 0 done, 2 usage error.\n\nExample:\n  manifest-resolver sample in.json",
  positionals: [
    { name: "FILE", required: true, nonEmpty: true },
    { name: "MORE", repeatable: true },
  ],
  options: {
    name: stringOption({ value: "NAME", help: "a name" }),
    dir: stringOption({
      value: "DIR",
      help: "a folder",
      default: { text: "the folder worked out", value: () => "worked-out" },
    }),
    host: stringOption({ value: "H", help: "a host", default: "127.0.0.1" }),
    key: stringOption({ value: "PEM", help: "a key", required: true }),
    verbose: booleanOption({ help: "say more" }),
    count: integerOption({ value: "N", min: 1, max: 10, default: 3, help: "how many" }),
    port: integerOption({ value: "N", min: 0, max: 65535, help: "a port" }),
    cap: integerOption({ value: "N", min: 0, max: 99, expects: "a whole number (0: no cap)", help: "a cap" }),
    context: jsonOption({
      value: "JSON",
      help: "a context.",
      default: { text: "none" },
      limits: () => ({ maxDepth: 3, maxArrayItems: 3 }),
    }),
    include: listOption({ value: "FILE", help: "a file to include; repeatable" }),
  },
});

const runSample: CommandRun<typeof declared> = async (values, positionals) => {
  // The values' types as the declarations imply them; tsc fails this line if one is not.
  const inferred: [
    Equal<typeof values.name, string | undefined>,
    Equal<typeof values.dir, string>,
    Equal<typeof values.host, string>,
    Equal<typeof values.key, string>,
    Equal<typeof values.verbose, boolean>,
    Equal<typeof values.count, number>,
    Equal<typeof values.port, number | undefined>,
    Equal<typeof values.context, unknown>,
    Equal<typeof values.include, string[]>,
    Equal<typeof positionals, [string, string[]]>,
  ] = [true, true, true, true, true, true, true, true, true, true];
  received = { values, positionals, inferred: inferred.every(Boolean) };
  return 0;
};

/** Declared, and run when its arguments pass: as the CLI's commands are. */
const sample = defineCommand(declared, async () => runSample);

/** Runs `command` as the CLI does, with what it prints. */
async function run(command: Command, ...args: string[]) {
  received = undefined;
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = mock.method(console, "log", (text: string) => stdout.push(text));
  const error = mock.method(console, "error", (text: string) => stderr.push(text));
  try {
    return { status: await runCommand(command, args), stdout: stdout.join("\n"), stderr: stderr.join("\n") };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

/** `args` must be a usage error: exit 2, nothing run, nothing on stdout, `message` and the hint on stderr. */
async function usageError(args: string[], message: string) {
  const result = await run(sample, ...args);
  assert.deepEqual(
    [result.status, result.stdout, result.stderr, received],
    [2, "", `manifest-resolver: ${message}\nRun 'manifest-resolver sample --help' for usage.`, undefined],
    args.join(" "),
  );
}

describe("declared options", () => {
  it("are read as their declared types", async () => {
    const result = await run(
      sample,
      ...["in.json", "--name", "n", "--dir", "d", "--host", "::1", "--key", "k.pem", "--verbose"],
      ...["--count", "10", "--port", "0", "--cap", "007", "--context", '{"a":[1,{"b":null}]}'],
      ...["--include", "a", "--include", "b", "m1", "m2"],
    );
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(received, {
      values: {
        name: "n",
        dir: "d",
        host: "::1",
        key: "k.pem",
        verbose: true,
        count: 10,
        port: 0,
        cap: 7,
        context: { a: [1, { b: null }] },
        include: ["a", "b"],
      },
      positionals: ["in.json", ["m1", "m2"]],
      inferred: true,
    });
  });

  it("take their defaults when absent: a value, one worked out, or none", async () => {
    assert.equal((await run(sample, "in.json", "--key", "k.pem")).status, 0);
    assert.deepEqual(received, {
      values: {
        name: undefined,
        dir: "worked-out",
        host: "127.0.0.1",
        key: "k.pem",
        verbose: false,
        count: 3,
        port: undefined,
        cap: undefined,
        context: undefined,
        include: [],
      },
      positionals: ["in.json", []],
      inferred: true,
    });
  });

  it("refuse an integer out of its bounds, or not a whole number, saying what it must be", async () => {
    const base = ["in.json", "--key", "k.pem"];
    for (const count of ["0", "11", "x", "2.5", "1e1", "", " 3"])
      await usageError([...base, "--count", count], `--count must be a whole number from 1 to 10, not '${count}'`);
    await usageError([...base, "--count=-1"], "--count must be a whole number from 1 to 10, not '-1'");
    await usageError([...base, "--port", "65536"], "--port must be a whole number from 0 to 65535, not '65536'");
    await usageError([...base, "--cap", "all"], "--cap must be a whole number (0: no cap), not 'all'");
  });

  it("read a duration as whole seconds, from a number and a unit, within its bound", () => {
    const age = durationOption({ value: "DURATION", max: 2 * 86_400, help: "how old", default: { text: "1d" } });
    const read = (given: string | undefined) => age.read(given, "--age");
    assert.deepEqual(["90", "90s", "15m", "12h", "2d", "0", undefined].map(read), [
      90,
      90,
      900,
      43_200,
      172_800,
      0,
      undefined,
    ]);
    for (const given of ["3d", "172801", "1w", "-1", "1.5h", "", "d", " 1d", "1d ", "1D", "9999999999999d"])
      assert.throws(() => read(given), UsageError, given);
  });

  it(
    "read JSON with the strict parser: a duplicate member, a rounded number, too " + "deep a value are usage errors",
    async () => {
      const base = ["in.json", "--key", "k.pem", "--context"];
      await usageError(
        [...base, '{"a":1,"a":2}'],
        '--context is not JSON: duplicate member name "a" (first at 1:2) (at character 8)',
      );
      const rounded = await run(sample, ...base, '{"n":9007199254740993}');
      assert.equal(rounded.status, 2);
      assert.match(rounded.stderr, /^manifest-resolver: --context is not JSON: .*9007199254740993/);
      const deep = await run(sample, ...base, "[[[[1]]]]");
      assert.equal(deep.status, 2);
      assert.match(deep.stderr, /^manifest-resolver: --context is too large: /);
      await usageError(
        [...base, "{a:1}"],
        "--context is not JSON: expected a member name in double quotes (at character 2)",
      );
    },
  );

  it("make an unknown option, a missing value or a missing required option a usage error, exit 2", async () => {
    await usageError(["in.json", "--nmae", "x"], "unknown option '--nmae' for sample; did you mean '--name'?");
    await usageError(["in.json", "--key"], "Option '--key <value>' argument missing");
    await usageError(["in.json", "--key", "k.pem", "--verbose=yes"], "Option '--verbose' does not take an argument");
    await usageError(["in.json"], "--key PEM is required");
    await usageError([], "sample needs a FILE");
    await usageError(["", "--key", "k.pem"], "FILE must not be empty");
  });

  it("check the count of arguments against their declaration, saying what the command takes", () => {
    const cases: [Parameters<typeof readPositionals>[1], string[], string][] = [
      [[], ["extra"], "unexpected argument 'extra'"],
      [[{ name: "FILE", required: true }], ["a", "b"], "cmd takes one FILE, not 2 arguments"],
      [
        [
          { name: "BASE_URL", required: true },
          { name: "UMID", required: true },
        ],
        ["https://r.example"],
        "cmd takes BASE_URL and UMID, not 1 argument",
      ],
      [[{ name: "FILE|DIR", required: true, repeatable: true }], [], "cmd needs at least one FILE|DIR"],
      [[{ name: "RULE" }], ["a", "b"], "cmd takes at most one RULE, not 2 arguments"],
    ];
    for (const [declared, given, message] of cases)
      assert.throws(() => readPositionals("cmd", declared, given), { message }, message);
    assert.deepEqual(readPositionals("cmd", [{ name: "RULE" }], []), [undefined]);
  });

  it("make a --help that lists every declared option, with its value and default, in the synopsis too", async () => {
    const result = await run(sample, "--help");
    assert.equal(result.status, 0);
    assert.equal(result.stdout, sample.help);
    const [usage, description, options, ...rest] = sample.help.split("\n\n");
    assert.equal(
      usage,
      "Usage: manifest-resolver sample FILE [MORE...] [--name NAME] [--dir DIR] [--host H]\n" +
        "                                --key PEM [--verbose] [--count N] [--port N] [--cap N]\n" +
        "                                [--context JSON] [--include FILE]...",
    );
    assert.equal(description, "Records what it was given.");
    assert.equal(
      options,
      [
        "Options:",
        "  --name NAME     a name",
        "  --dir DIR       a folder (default: the folder worked out)",
        "  --host H        a host (default: 127.0.0.1)",
        "  --key PEM       a key",
        "  --verbose       say more",
        "  --count N       how many (default: 3)",
        "  --port N        a port",
        "  --cap N         a cap",
        "  --context JSON  a context. Default: none.",
        "  --include FILE  a file to include; repeatable",
      ].join("\n"),
    );
    // Between the options and the epilogue: where the settings come from, and in which order.
    const [settings, ...epilogue] = rest;
    assert.match(settings!, /^Settings: manifest-resolver\.json [\s\S]*environment variable overrides it/);
    assert.deepEqual(epilogue, ["Exit status: 0 done, 2 usage error.", "Example:\n  manifest-resolver sample in.json"]);
    // A command that reads no setting says nothing of them.
    const settingless = defineCommand({ ...declared, settings: false }, async () => runSample);
    assert.deepEqual(settingless.help.split("\n\n").slice(3), epilogue);
  });

  it("list every option of every command in its --help, in the Options section, and in the synopsis unless deprecated", async () => {
    for (const command of await Promise.all(COMMANDS.map((entry) => entry.load()))) {
      const [usage] = command.help.split("\n\n");
      const section = /\nOptions:\n((?: {2}.*\n?)+)/.exec(command.help)?.[1] ?? "";
      const listed = [...section.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
      const declared = Object.keys(command.options).map((name) => `--${name}`);
      assert.deepEqual(listed, declared, `${command.name} --help lists its options in order`);
      for (const flag of declared) {
        const shown = new RegExp(`\\[?${flag}\\b`).test(usage!);
        const deprecated = new RegExp(`^ {2}${flag}(?: [A-Z]+)?\\s+deprecated\\b`, "m").test(section);
        assert.notEqual(shown, deprecated, `${command.name}: ${flag} in the synopsis unless deprecated`);
      }
    }
  });
});
