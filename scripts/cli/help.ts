/**
 * The generated parts of a command's --help: its synopsis and its Options section, from
 * the declarations of its arguments and options, wrapped to the width of the hand-written
 * rest.
 */
import type { Option, Options } from "./options.ts";
import { positionalSynopsis, type Positional } from "./positionals.ts";

const WIDTH = 90;
/** An option's name and value longer than this (`--allow-unsigned FILE`) get a line of their own. */
const LABEL_WIDTH = 16;

/** `Usage: manifest-resolver NAME FILE [--out DIR] [--json]`, continued under its first argument. */
export function synopsis(command: string, positionals: readonly Positional[], options: Options): string {
  const prefix = `Usage: manifest-resolver ${command}`;
  const words = [
    ...positionalSynopsis(positionals),
    ...Object.entries(options)
      .filter(([, option]) => option.deprecated !== true)
      .map(([name, option]) => {
        const word = label(name, option);
        return option.required ? word : option.multiple ? `[${word}]...` : `[${word}]`;
      }),
  ];
  if (words.length === 0) return prefix;
  const indent = " ".repeat(prefix.length + 1);
  return wrap(words, WIDTH - indent.length)
    .map((line, i) => (i === 0 ? `${prefix} ` : indent) + line)
    .join("\n");
}

/** `Options:` and a line or more for each option; nothing when there is none. */
export function optionsSection(options: Options): string {
  const entries = Object.entries(options);
  if (entries.length === 0) return "";
  const widest = Math.max(...entries.map(([name, option]) => label(name, option).length));
  const column = 2 + Math.min(LABEL_WIDTH, widest) + 2;
  const indent = " ".repeat(column);
  const lines = entries.flatMap(([name, option]) => {
    const head = `  ${label(name, option)}`;
    const [first, ...more] = wrapText(described(option), WIDTH - column);
    const rest = more.map((line) => indent + line);
    return head.length + 2 > column ? [head, indent + first, ...rest] : [head.padEnd(column) + first, ...rest];
  });
  return ["Options:", ...lines].join("\n");
}

function label(name: string, option: Option<unknown>): string {
  return option.value === undefined ? `--${name}` : `--${name} ${option.value}`;
}

/** Its help and its default: a sentence of its own after sentences, in brackets after a phrase. */
function described({ help, defaultText }: Option<unknown>): string {
  if (defaultText === undefined) return help;
  return help.endsWith(".") ? `${help} Default: ${defaultText}.` : `${help} (default: ${defaultText})`;
}

/** Lines of `text` at most `width` wide (but for a longer word), keeping its own line breaks. */
function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((line) => wrap(line.split(" "), width));
}

function wrap(words: string[], width: number): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}
