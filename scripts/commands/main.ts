/**
 * `manifest-resolver COMMAND [options]`: dispatch, `--help`, and usage errors that say what was meant (`--version`
 * is answered by bin/manifest-resolver.js, without loading this). What only a command or a usage error needs is
 * imported when it is needed: `--help` loads this module and a small one, each a file the bundle's loader must
 * find, read and compile at every start.
 */
import { parseArgs } from "node:util";
import type { Command } from "./command.ts";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-status.ts";

/** A command as the overview lists it; its module (and all it imports) is loaded only to run it. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: "init",
    summary: "make a folder a publisher's repository: content/, host settings, CI workflows",
    load: async () => (await import("./init.ts")).init,
  },
  {
    name: "keygen",
    summary: "make a new Ed25519 signing key (private key to a file, public key printed)",
    load: async () => (await import("./keygen.ts")).keygen,
  },
  {
    name: "new",
    summary: "print or write a new, unsigned v0.4 manifest skeleton",
    load: async () => (await import("./new.ts")).newManifest,
  },
  {
    name: "sign",
    summary: "sign manifests with Profile A (Ed25519 over JCS), rewriting them in place",
    load: async () => (await import("./sign.ts")).sign,
  },
  {
    name: "check",
    summary: "validate manifests, _routes.json and _keys.json without writing anything",
    load: async () => (await import("./check.ts")).check,
  },
  {
    name: "explain",
    summary: "explain a rule a problem names: what is wrong, why it matters, how to fix it",
    load: async () => (await import("./explain.ts")).explain,
  },
  {
    name: "revoke",
    summary: "revoke a UMID in _routes.json: it then answers 410",
    load: async () => (await import("./routes.ts")).revoke,
  },
  {
    name: "suspend",
    summary: "suspend a published UMID in _routes.json: its status becomes suspended",
    load: async () => (await import("./routes.ts")).suspend,
  },
  {
    name: "reinstate",
    summary: "end the suspension of a UMID in _routes.json: its status becomes active",
    load: async () => (await import("./routes.ts")).reinstate,
  },
  {
    name: "redirect",
    summary: "redirect a UMID to a URL in _routes.json: it then answers 307",
    load: async () => (await import("./routes.ts")).redirect,
  },
  {
    name: "log",
    summary: "append the content's served states to its transparency log (content/_log/) and sign it",
    load: async () => (await import("./log.ts")).log,
  },
  {
    name: "build",
    summary: "validate content/ and write the resolver's static output to dist/",
    load: async () => (await import("./build.ts")).build,
  },
  {
    name: "serve",
    summary: "serve a built dist/ through the resolver's edge handler, until stopped",
    load: async () => (await import("./serve.ts")).serve,
  },
  {
    name: "probe",
    summary: "check a running resolver (local, a deploy preview, production) against the contract",
    load: async () => (await import("./probe.ts")).probe,
  },
  {
    name: "monitor",
    summary: "audit the transparency log a resolver serves, and print the UMIDs whose state changed",
    load: async () => (await import("./monitor.ts")).monitor,
  },
  {
    name: "evaluate",
    summary: "evaluate a manifest as a relying party would, and print its receipt",
    load: async () => (await import("./evaluate.ts")).evaluateCommand,
  },
  {
    name: "resolve",
    summary: "resolve a UMID at a resolver, check its status, evaluate it, print the receipt",
    load: async () => (await import("./resolve.ts")).resolveCommand,
  },
];

const OVERVIEW = `Usage: manifest-resolver COMMAND [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`).join("\n")}

Run 'manifest-resolver COMMAND --help' for a command's options, 'manifest-resolver --version' for the version.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(OVERVIEW);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined)
    return usageError(
      `unknown command '${name}'${await didYouMean(
        name,
        COMMANDS.map((c) => c.name),
      )}`,
      OVERVIEW,
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
