/**
 * The source line a problem is in, and a caret under its column, as tsc --pretty and
 * eslint's codeframe print them. A manifest may be one line of a megabyte: only a window
 * of the line around the column is shown. Characters are escaped as in the problem line
 * (see printable), and the caret counts the escaped characters before it.
 */
import { printable } from "./diagnostics.ts";

/** Characters of the line shown before the column, at most; and in all. */
const BEFORE = 60;
const WIDTH = 150;

/** Two lines: ` 15 | the source line` and `    |        ^`; none when the line does not exist. */
export function codeFrame(
  text: string,
  line: number,
  column: number,
  caret: (mark: string) => string = (mark) => mark,
): string[] {
  const lines = text.split("\n");
  const source = lines[line - 1]?.replace(/\r$/, "");
  if (source === undefined) return [];
  const from = Math.max(0, column - 1 - BEFORE);
  const cut = source.slice(from, from + WIDTH);
  const shown = `${from > 0 ? "…" : ""}${printable(cut)}${from + WIDTH < source.length ? "…" : ""}`;
  const offset = (from > 0 ? 1 : 0) + printable(source.slice(from, column - 1)).length;
  const gutter = String(line);
  return [` ${gutter} | ${shown}`, ` ${" ".repeat(gutter.length)} | ${" ".repeat(offset)}${caret("^")}`];
}
