/** A command of the CLI, declared and runnable, as `manifest-resolver NAME` loads it: for tests that run it in-process. */
import type { Command } from "../../scripts/cli/command.ts";
import { COMMANDS } from "../../scripts/commands/main.ts";

export async function cliCommand(name: string): Promise<Command> {
  const entry = COMMANDS.find((command) => command.name === name);
  if (entry === undefined) throw new Error(`no command ${name}`);
  return entry.load();
}
