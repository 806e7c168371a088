/**
 * Text from content, made safe to print on a terminal or in a CI log. On its own, without
 * the rule registry that diagnostics.ts brings: the CLI's dispatch prints usage errors
 * with it, and `--version` and `--help` load nothing more than they print.
 */

/**
 * Control, line-break and bidirectional formatting characters (C0, DEL, C1, U+2028,
 * U+2029, U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), and the `[` of `##[`,
 * written as visible escapes. File names, UMIDs and values quoted in messages come from
 * content an attacker may write: a line break would start a line of their own (under
 * GitHub Actions, a workflow command), `##[` is a workflow command wherever it stands in
 * a line (the runner's older syntax), and a bidirectional override would show the reader
 * other text than what is there. The escapes are JSON's (`\n`, `\u202e`), so a JSON line
 * stays valid JSON with the same values.
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => ESCAPES[c] ?? (c === "##[" ? "##\\u005b" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|##\[/g;
const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A file name as printed at the start of a line: escaped, and never starting with ":" or
 * white space, since the runner takes a line whose first non-blank characters are "::" for
 * a workflow command.
 */
export function printableFile(file: string): string {
  return printable(/^[\s:]/.test(file) ? `./${file}` : file);
}
