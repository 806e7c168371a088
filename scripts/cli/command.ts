/**
 * The shape every CLI command shares, its exit statuses, and how a command is declared. A command is two modules:
 * its declaration (name, arguments, options, the words of its --help), all that --help and a usage error need, and
 * its run, loaded only once the arguments are read: `build --help` loads no part of the build.
 */
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
  /** False for a command that reads no setting: its --help says nothing of where settings come from. */
  settings?: false;
}

/** Where every command that reads settings takes them from, and in which order (scripts/config.ts). */
const SETTINGS_HELP = `Settings: manifest-resolver.json at the repository's top (init writes it) holds the
project's resolverUrl, signingKeyRef, keysDir, statusLists, statusListKey and logOrigin.
An environment variable overrides it (UM_RESOLVER_URL, UM_SIGNING_KEY_REF, UM_KEYS_DIR,
UM_STATUS_LISTS, UM_LOG_ORIGIN), and a flag overrides both.`;

/** What runs a command: its options and arguments, read and typed by its declaration. */
type Run<O extends Options, P extends readonly Positional[]> = (
  values: Values<O>,
  positionals: PositionalValues<P>,
) => Promise<number>;

/** The run of a declared command (`CommandRun<typeof build>`), typed by its declaration. */
export type CommandRun<D> = D extends CommandDeclaration<infer O, infer P> ? Run<O, P> : never;

/** A command's declaration, its types kept for its run (`CommandRun<typeof declared>`). */
export function declareCommand<O extends Options, const P extends readonly Positional[]>(
  declared: CommandDeclaration<O, P>,
): CommandDeclaration<O, P> {
  return declared;
}

/**
 * A command from its declaration, which gives its --help's synopsis and Options section and its arguments' checks,
 * and its run, loaded when the arguments pass them.
 */
export function defineCommand<O extends Options, const P extends readonly Positional[]>(
  declared: CommandDeclaration<O, P>,
  loadRun: () => Promise<Run<O, P>>,
): Command {
  const { name, positionals, options, description, epilogue } = declared;
  const settings = declared.settings === false ? "" : SETTINGS_HELP;
  return {
    name,
    help: [synopsis(name, positionals, options), description, optionsSection(options), settings, epilogue]
      .filter((part) => part !== "")
      .join("\n\n"),
    options: parseArgsOptions(options),
    async run(values, given) {
      const read = readPositionals(name, positionals, given);
      const typed = readOptions(options, values);
      return (await loadRun())(typed, read);
    },
  };
}
