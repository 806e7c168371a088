/**
 * Writing a publisher's JSON files back: in the indentation style they were written in
 * (tabs or N spaces, or one line), and atomically (a temporary file beside the target,
 * renamed over it), so an interrupted write never leaves half a file.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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

/** Replaces `path` with `text` in one step, keeping the file's permissions. */
export async function writeFileAtomically(path: string, text: string | Uint8Array, mode?: number): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const existingMode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => undefined,
  );
  try {
    await writeFile(temporary, text, { mode: mode ?? existingMode ?? 0o644, flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
