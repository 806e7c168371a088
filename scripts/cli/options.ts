/**
 * A command's options, each declared once: its name (the key it is declared under), its
 * type, the name of its value in --help, its default and its help text. From that one
 * declaration come node:util parseArgs's configuration, the checks of what was given
 * (usage errors naming the option and what it wants), the Options section of --help
 * (help.ts) and the typed values a command runs with.
 */
import type { ParseArgsConfig } from "node:util";
import { parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import { UsageError } from "./exit-status.ts";

export interface Option<T> {
  /** How parseArgs reads it: a flag, or an option with a value, once or repeatedly. */
  readonly type: "string" | "boolean";
  readonly multiple: boolean;
  /** The name of its value in --help (DIR, N, FILE); none for a flag. */
  readonly value: string | undefined;
  /** What it does: a phrase, or sentences ending with a full stop. */
  readonly help: string;
  /** What --help says it defaults to, if anything. */
  readonly defaultText: string | undefined;
  readonly required: boolean;
  /** An old spelling kept for a while (scripts/commands/deprecated-spelling.ts): in Options, not in the synopsis. */
  readonly deprecated?: true;
  /** Its value, from what parseArgs read (undefined: not given); a usage error naming `flag` if unusable. */
  read(given: unknown, flag: string): T;
}

export type Options = Record<string, Option<unknown>>;

/** The values a command's options are read as, by name: `string | undefined`, `boolean`, `number`, `string[]`... */
export type Values<O extends Options> = { [K in keyof O]: O[K] extends Option<infer T> ? T : never };

/** A default --help describes in words, worked out when the command runs: "the repository's dist/". */
export interface ComputedDefault<T> {
  text: string;
  value: () => T;
}

/** What the command does when the option is absent, for --help: the option then reads as undefined. */
export interface WhenAbsent {
  text: string;
}

interface Declaration {
  help: string;
  deprecated?: true;
}

interface ValueDeclaration extends Declaration {
  /** The name of the value in --help: DIR, N, FILE. */
  value: string;
}

interface StringDeclaration extends ValueDeclaration {
  /** Given as "", a usage error. */
  nonEmpty?: boolean;
}

export function stringOption(declared: StringDeclaration & { required: true }): Option<string>;
export function stringOption(
  declared: StringDeclaration & { default: string | ComputedDefault<string> },
): Option<string>;
export function stringOption(declared: StringDeclaration & { default?: WhenAbsent }): Option<string | undefined>;
export function stringOption(
  declared: StringDeclaration & { required?: true; default?: string | ComputedDefault<string> | WhenAbsent },
): Option<string | undefined> {
  const { required = false, nonEmpty = false } = declared;
  return {
    ...withValue(declared, declared.default),
    required,
    read(given, flag) {
      if (typeof given !== "string") {
        if (required) throw new UsageError(`${flag} ${declared.value} is required`);
        const fallback = declared.default;
        return typeof fallback === "object" ? ("value" in fallback ? fallback.value() : undefined) : fallback;
      }
      if (nonEmpty && given === "") throw new UsageError(`${flag} must not be empty`);
      return given;
    },
  };
}

/** A flag: true when given. */
export function booleanOption(declared: Declaration & { default?: WhenAbsent }): Option<boolean> {
  return {
    type: "boolean",
    multiple: false,
    value: undefined,
    help: declared.help,
    defaultText: declared.default?.text,
    required: false,
    ...(declared.deprecated && { deprecated: true }),
    read: (given) => given === true,
  };
}

interface IntegerDeclaration extends ValueDeclaration {
  min: number;
  max: number;
  /** What a usage error says it must be; by default "a whole number from MIN to MAX". */
  expects?: string;
}

export function integerOption(declared: IntegerDeclaration & { default: number }): Option<number>;
export function integerOption(declared: IntegerDeclaration): Option<number | undefined>;
export function integerOption(declared: IntegerDeclaration & { default?: number }): Option<number | undefined> {
  const { min, max, expects = `a whole number from ${min} to ${max}` } = declared;
  return {
    ...withValue(declared, declared.default),
    required: false,
    read(given, flag) {
      if (typeof given !== "string") return declared.default;
      const number = Number(given);
      if (!/^-?\d+$/.test(given) || number < min || number > max)
        throw new UsageError(`${flag} must be ${expects}, not '${given}'`);
      return number;
    },
  };
}

/** Seconds in each unit a duration may be given in. */
const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * A duration, read as whole seconds: a number with a unit, `30d`, `12h`, `15m`, `90s` (a bare number is seconds), at
 * most `max` seconds. Undefined when absent: the default is the library's, which --help states in `default`.
 */
export function durationOption(
  declared: ValueDeclaration & { max: number; default: WhenAbsent },
): Option<number | undefined> {
  return {
    ...withValue(declared, declared.default),
    required: false,
    read(given, flag) {
      if (typeof given !== "string") return undefined;
      const match = /^(\d{1,12})([smhd]?)$/.exec(given);
      const seconds = match && Number(match[1]) * DURATION_UNITS[match[2] || "s"]!;
      if (seconds === null || seconds > declared.max)
        throw new UsageError(
          `${flag} must be a whole number of seconds, or of minutes, hours or days (90s, 15m, 12h, 30d), ` +
            `at most ${declared.max / 86_400} days, not '${given}'`,
        );
      return seconds;
    },
  };
}

interface JsonDeclaration extends ValueDeclaration {
  /** How deep and long the value may be: user input must not exhaust the stack. */
  limits: () => ShapeLimits;
  default?: WhenAbsent;
}

/** A JSON value, read by the strict parser (core/json/strict-json.ts): no duplicate member, no rounded number. */
export function jsonOption(declared: JsonDeclaration): Option<unknown> {
  return {
    ...withValue(declared, declared.default),
    required: false,
    read(given, flag) {
      if (typeof given !== "string") return undefined;
      const parsed = parseJson(given, declared.limits());
      if (parsed.ok) return parsed.value;
      const { rule, message, offset } = parsed.problem;
      throw new UsageError(
        `${flag} ${rule.startsWith("limits/") ? "is too large" : "is not JSON"}: ` +
          `${message} (at character ${offset + 1})`,
      );
    },
  };
}

/** An option given any number of times, each with a value: all of them, in order. */
export function listOption(declared: ValueDeclaration): Option<string[]> {
  return {
    ...withValue(declared, undefined),
    multiple: true,
    required: false,
    read: (given) => (Array.isArray(given) ? given.filter((item) => typeof item === "string") : []),
  };
}

/** node:util parseArgs's configuration of `options`. */
export function parseArgsOptions(options: Options): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    Object.entries(options).map(([name, option]) => [name, { type: option.type, multiple: option.multiple }]),
  );
}

/** Each option's value from what parseArgs read, in the order they are declared; throws UsageError. */
export function readOptions<O extends Options>(options: O, given: Record<string, unknown>): Values<O> {
  const values = Object.fromEntries(
    Object.entries(options).map(([name, option]) => [name, option.read(given[name], `--${name}`)]),
  );
  // The one place declared types meet values built at run time: each is its option's read().
  return values as Values<O>;
}

/** What every option with a value declares alike; `fallback`, its default, for --help. */
function withValue(
  declared: ValueDeclaration,
  fallback: string | number | WhenAbsent | undefined,
): Omit<Option<unknown>, "required" | "read"> {
  return {
    type: "string",
    multiple: false,
    value: declared.value,
    help: declared.help,
    defaultText: typeof fallback === "object" ? fallback.text : fallback?.toString(),
    ...(declared.deprecated && { deprecated: true }),
  };
}
