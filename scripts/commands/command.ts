/** The shape every CLI command shares, its exit statuses, and how a command is declared. */
import type { ParseArgsConfig } from "node:util";
import { optionsSection, synopsis } from "./help.ts";
import { parseArgsOptions, readOptions, type Options, type Values } from "./options.ts";
import { readPositionals, type Positional, type PositionalValues } from "./positionals.ts";

export { EXIT_FAILED, EXIT_OK, UsageError } from "./exit-status.ts";

export interface Command {
  name: string;
  /** The text of `--help`: synopsis, description, options, an example. */
  help: string;
  /** What node:util parseArgs reads. */
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Runs with what parseArgs read, once checked against the declarations (UsageError otherwise). */
  run(values: Record<string, unknown>, positionals: string[]): Promise<number>;
}

export interface CommandDeclaration<O extends Options, P extends readonly Positional[]> {
  name: string;
  positionals: P;
  options: O;
  /** --help between the synopsis and the options: what the command does. */
  description: string;
  /** --help after the options: more notes, the environment, the exit statuses, an example. */
  epilogue: string;
  run(values: Values<O>, positionals: PositionalValues<P>): Promise<number>;
}

/**
 * A command from its declaration: its --help's synopsis and Options section, and its arguments' checks, come from it.
 */
export function defineCommand<O extends Options, const P extends readonly Positional[]>(
  declared: CommandDeclaration<O, P>,
): Command {
  const { name, positionals, options, description, epilogue } = declared;
  return {
    name,
    help: [synopsis(name, positionals, options), description, optionsSection(options), epilogue]
      .filter((part) => part !== "")
      .join("\n\n"),
    options: parseArgsOptions(options),
    async run(values, given) {
      const read = readPositionals(name, positionals, given);
      return declared.run(readOptions(options, values), read);
    },
  };
}
