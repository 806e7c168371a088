/** `manifest-resolver COMMAND [options]`: dispatch, `--help`, `--version`, and usage errors that say what was meant. */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { closest } from "./closest.ts";
import { build } from "./commands/build.ts";
import { check } from "./commands/check.ts";
import { evaluateCommand } from "./commands/evaluate.ts";
import { keygen } from "./commands/keygen.ts";
import { newManifest } from "./commands/new.ts";
import { probe } from "./commands/probe.ts";
import { resolveCommand } from "./commands/resolve.ts";
import { redirect, reinstate, revoke, suspend } from "./commands/routes.ts";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, type Command } from "./commands/command.ts";
import { serve } from "./commands/serve.ts";
import { sign } from "./commands/sign.ts";
import { ConfigError } from "./config.ts";
import { LockTimeout } from "./content/file-lock.ts";
import { printable } from "./report/diagnostics.ts";

export const COMMANDS: Command[] = [keygen, newManifest, sign, check, revoke, suspend, reinstate, redirect, build, serve, probe, evaluateCommand, resolveCommand];

const OVERVIEW = `Usage: manifest-resolver COMMAND [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`).join("\n")}

Run 'manifest-resolver COMMAND --help' for a command's options, 'manifest-resolver --version' for the version.`;

const VERSION: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(OVERVIEW);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === "--version" || name === "-V") {
    console.log(`manifest-resolver ${VERSION}`);
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) return usageError(`unknown command '${name}'${didYouMean(name, COMMANDS.map((c) => c.name))}`, OVERVIEW);
  try {
    const { values, positionals } = parseArgs({
      args: rest,
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
    const code = (error as { code?: string }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const option = /'(-[^']*)'/.exec((error as Error).message)?.[1] ?? "";
      const flags = Object.keys({ ...command.options, help: true }).map((o) => `--${o}`);
      return usageError(`unknown option '${option}' for ${name}${didYouMean(option.split("=")[0]!, flags)}`, `Run 'manifest-resolver ${name} --help' for usage.`);
    }
    if (error instanceof UsageError || error instanceof ConfigError || code?.startsWith("ERR_PARSE_ARGS")) {
      // Node's parseArgs writes some messages over several lines: one line here, as every error.
      return usageError((error as Error).message.replace(/\n/g, " "), `Run 'manifest-resolver ${name} --help' for usage.`);
    }
    if (error instanceof LockTimeout) {
      console.error(`manifest-resolver: ${printable(error.message)}`);
      return EXIT_FAILED;
    }
    throw error;
  }
}

/** "; did you mean 'x'?" when one of `known` is near `typed`, else nothing. */
function didYouMean(typed: string, known: string[]): string {
  const [nearest] = closest(typed, known, 1, Math.max(2, Math.floor(typed.length / 3)));
  return nearest === undefined ? "" : `; did you mean '${nearest}'?`;
}

function usageError(message: string, hint: string): number {
  console.error(`${printable(`manifest-resolver: ${message}`)}\n${hint}`);
  return EXIT_USAGE;
}
