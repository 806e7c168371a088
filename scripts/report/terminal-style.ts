/**
 * Whether problems are printed for a person at a terminal (a code frame under each, in
 * colour) or plainly, for a pipe, a file or a CI log, as tsc --pretty and eslint decide:
 * by whether the stream is a TTY, with the conventions every CLI honours: `NO_COLOR`
 * (no-color.org: present and not empty, no colour) and `FORCE_COLOR` (Node's own: set
 * and not "0" or "false", colour and terminal output even into a pipe, and it wins over
 * `NO_COLOR`, as it does for Node; "0" or "false", no colour even on a terminal). Under
 * `CI` (set by GitHub Actions, GitLab, Netlify…) output is plain even where the runner
 * attaches a terminal: it ends up in a log.
 */

export interface TerminalStyle {
  /** A code frame under each problem. */
  frame: boolean;
  colour: boolean;
}

export function terminalStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): TerminalStyle {
  // FORCE_COLOR=0 or false is Node's "no colour" (colour depth 1), not merely "not forced".
  const forcedOff = env.FORCE_COLOR === "0" || env.FORCE_COLOR === "false";
  const forced = env.FORCE_COLOR !== undefined && !forcedOff;
  const tty = stream.isTTY === true && (env.CI === undefined || env.CI === "" || env.CI === "false");
  const noColour = forcedOff || (env.NO_COLOR !== undefined && env.NO_COLOR !== "");
  return { frame: tty || forced, colour: forced || (tty && !noColour) };
}

/** SGR colours (ECMA-48 §8.3.117), each reset by its own closing code so that they nest. */
const SGR = { bold: [1, 22], dim: [2, 22], red: [31, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Paint = keyof typeof SGR;

/** `text` in `paint` when `colour`, as it is otherwise. */
export function painted(colour: boolean, paint: Paint, text: string): string {
  return colour ? `\x1b[${SGR[paint][0]}m${text}\x1b[${SGR[paint][1]}m` : text;
}
