/** The shape every CLI command shares, and its exit statuses. */
import type { ParseArgsConfig } from "node:util";

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  name: string;
  /** The text of `--help`: synopsis, options, an example. */
  help: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  run(values: OptionValues, positionals: string[]): Promise<number>;
}

/** A mistake in how the command was called: exit status 2, with the message and a hint. */
export class UsageError extends Error {}

export function stringOption(values: OptionValues, name: string, fallback: string): string {
  const value = values[name];
  return typeof value === "string" ? value : fallback;
}
