/**
 * `manifest-resolver COMMAND [options]` for a table of commands: dispatch, `--help`, and usage errors that say what
 * was meant. What only a command or a usage error needs is imported when it is needed: `--help` loads the table, this
 * module and the command's declaration, each a file the bundle's loader must find, read and compile at every start.
 */
import { parseArgs } from "node:util";
import type { Command } from "./command.ts";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-status.ts";

/** A command as the overview lists it; its declaration is loaded only for it, its run only to run it. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

function overview(commands: readonly CommandEntry[]): string {
  return `Usage: manifest-resolver COMMAND [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(10)}${c.summary}`).join("\n")}

Run 'manifest-resolver COMMAND --help' for a command's options, 'manifest-resolver --version' for the version.`;
}

/** Runs the command `argv` names, with the rest of `argv`. */
export async function dispatch(argv: string[], commands: readonly CommandEntry[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(overview(commands));
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const entry = commands.find((c) => c.name === name);
  if (entry === undefined)
    return usageError(
      `unknown command '${name}'${await didYouMean(
        name,
        commands.map((c) => c.name),
      )}`,
      overview(commands),
    );
  return runCommand(await entry.load(), rest);
}

/** Runs `command` with the arguments after its name: its --help, or its run; usage errors exit 2. */
export async function runCommand(command: Command, args: string[]): Promise<number> {
  const { name } = command;
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      console.log(command.help);
      return EXIT_OK;
    }
    return await command.run(values, positionals);
  } catch (error) {
    const [{ ConfigError }, { LockTimeout }, { printable }] = await Promise.all([
      import("../config.ts"),
      import("../edit/file-lock.ts"),
      import("../report/printable.ts"),
    ]);
    const code = (error as { code?: string }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const option = /'(-[^']*)'/.exec((error as Error).message)?.[1] ?? "";
      const flags = Object.keys({ ...command.options, help: true }).map((o) => `--${o}`);
      return usageError(
        `unknown option '${option}' for ${name}${await didYouMean(option.split("=")[0]!, flags)}`,
        `Run 'manifest-resolver ${name} --help' for usage.`,
      );
    }
    if (error instanceof UsageError || error instanceof ConfigError || code?.startsWith("ERR_PARSE_ARGS")) {
      // Node's parseArgs writes some messages over several lines: one line here, as every error.
      return usageError(
        (error as Error).message.replace(/\n/g, " "),
        `Run 'manifest-resolver ${name} --help' for usage.`,
      );
    }
    if (error instanceof LockTimeout) {
      console.error(`manifest-resolver: ${printable(error.message)}`);
      return EXIT_FAILED;
    }
    throw error;
  }
}

/** "; did you mean 'x'?" when one of `known` is near `typed`, else nothing. */
async function didYouMean(typed: string, known: string[]): Promise<string> {
  const { closest } = await import("../closest.ts");
  const [nearest] = closest(typed, known, 1, Math.max(2, Math.floor(typed.length / 3)));
  return nearest === undefined ? "" : `; did you mean '${nearest}'?`;
}

async function usageError(message: string, hint: string): Promise<number> {
  const { printable } = await import("../report/printable.ts");
  console.error(`${printable(`manifest-resolver: ${message}`)}\n${hint}`);
  return EXIT_USAGE;
}
