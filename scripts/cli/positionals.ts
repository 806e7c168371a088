/**
 * A command's positional arguments, declared once, in order: their names in the synopsis
 * (FILE, UMID), which are required, and whether the last one is repeatable. The count
 * given is checked against them, with a usage error saying what the command takes, and
 * they are handed to the command typed: `string`, `string | undefined`, or `string[]`. A
 * positional with `choices` is an action word (`witness serve`): the synopsis shows the words.
 */
import { UsageError } from "./exit-status.ts";

export interface Positional {
  /** Its name in the synopsis and in usage errors: FILE, BASE_URL. */
  name: string;
  required?: boolean;
  /** Given any number of times (at least once, if required): the last one only. */
  repeatable?: boolean;
  /** Given as "", a usage error. */
  nonEmpty?: boolean;
  /** The words it may be, for an action (`serve`): the synopsis shows them in its place. */
  choices?: readonly string[];
}

export type PositionalValues<P extends readonly Positional[]> = {
  -readonly [I in keyof P]: P[I] extends { repeatable: true }
    ? string[]
    : P[I] extends { required: true }
      ? string
      : string | undefined;
};

/** The arguments as declared; throws UsageError for a count or value the declaration refuses. */
export function readPositionals<P extends readonly Positional[]>(
  command: string,
  declared: P,
  given: string[],
): PositionalValues<P> {
  const most = declared.at(-1)?.repeatable ? Infinity : declared.length;
  const least = declared.filter((positional) => positional.required).length;
  if (declared.length === 0 && given.length > 0) throw new UsageError(`unexpected argument '${given[0]}'`);
  if (given.length === 0 && least > 0) throw new UsageError(`${command} needs ${needed(declared)}`);
  if (given.length < least || given.length > most)
    throw new UsageError(
      `${command} takes ${taken(declared)}, not ${given.length} argument${given.length === 1 ? "" : "s"}`,
    );
  const values = declared.map((positional, i) => (positional.repeatable ? given.slice(i) : given[i]));
  for (const [i, positional] of declared.entries())
    if (positional.nonEmpty && [values[i]].flat().includes(""))
      throw new UsageError(`${positional.name} must not be empty`);
  for (const [i, positional] of declared.entries())
    if (positional.choices && values[i] !== undefined && !positional.choices.includes(values[i] as string))
      throw new UsageError(`${positional.name} must be ${positional.choices.join(" or ")}, not '${values[i]}'`);
  // The one place the declared types meet the arguments: each is read as its declaration says.
  return values as PositionalValues<P>;
}

/** The synopsis of the arguments: `BASE_URL [UMID...]`. */
export function positionalSynopsis(declared: readonly Positional[]): string[] {
  return declared.map(({ name, required, repeatable, choices }) => {
    const shown = choices?.join("|") ?? name;
    const word = repeatable ? `${shown}...` : shown;
    return required ? word : `[${word}]`;
  });
}

/** What a command given no argument needs: "a FILE", "at least one FILE|DIR", "BASE_URL and UMID". */
function needed(declared: readonly Positional[]): string {
  const required = declared.filter((positional) => positional.required);
  if (required.length === 1 && required[0]!.choices) return `${required[0]!.name} ${required[0]!.choices.join("|")}`;
  if (required.length > 1) return required.map((positional) => positional.name).join(" and ");
  return `${required[0]!.repeatable ? "at least one" : "a"} ${required[0]!.name}`;
}

/** What a command takes: "one FILE", "at most one RULE", "BASE_URL and UMID". */
function taken(declared: readonly Positional[]): string {
  if (declared.length === 1 && !declared[0]!.repeatable)
    return `${declared[0]!.required ? "one" : "at most one"} ${declared[0]!.name}`;
  return positionalSynopsis(declared).join(" and ");
}
