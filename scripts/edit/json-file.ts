/**
 * Writing a publisher's JSON files back in the indentation style they were written in
 * (tabs or N spaces, or one line); the commands write them with the one atomic writer
 * (scripts/store/atomic-write.ts), so an interrupted write never leaves half a file.
 */

export interface JsonStyle {
  /** What JSON.stringify takes as `space`: a tab, a number of spaces, or 0 for one line. */
  indent: string | number;
  finalNewline: boolean;
}

export const DEFAULT_STYLE: JsonStyle = { indent: 2, finalNewline: true };

export function detectStyle(text: string): JsonStyle {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  return {
    indent:
      indent === undefined ? (text.trim().includes("\n") ? 2 : 0) : indent.startsWith("\t") ? "\t" : indent.length,
    finalNewline: text.endsWith("\n"),
  };
}

export function formatJson(value: unknown, style: JsonStyle): string {
  return JSON.stringify(value, null, style.indent) + (style.finalNewline ? "\n" : "");
}
