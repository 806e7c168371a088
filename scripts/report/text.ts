/**
 * A diagnostic as a line of text, the way TypeScript prints one:
 * `file:line:col - error RULE: message at /json/pointer`.
 */
import { placeName } from "../../core/evaluate/evaluation.ts";
import { pointerExcerpt } from "../../core/excerpt.ts";
import { printable, printableFile, type Diagnostic, type Severity } from "./diagnostics.ts";
import type { Paint } from "./terminal-style.ts";

/** The colour of each severity's word, and of the marks under its place in a code frame. */
export const SEVERITY_COLOUR: Record<Severity, Paint> = { error: "red", warning: "yellow", note: "cyan" };

export function formatDiagnostic(d: Diagnostic): string {
  return formatPainted(d, (_, text) => text);
}

/** The same line, `paint` colouring its parts (each escaped first, so that no colour code is), as tsc --pretty does. */
export function formatPainted(d: Diagnostic, paint: (colour: Paint, text: string) => string): string {
  const place = d.line === undefined ? "" : `:${d.line}:${d.column}`;
  const severity = paint(SEVERITY_COLOUR[d.severity], d.severity);
  return (
    `${paint("cyan", printableFile(d.file))}${paint("yellow", place)} - ${severity} ` +
    `${paint("dim", printable(d.rule))}: ${printable(messageText(d))}`
  );
}

/** The message, and the JSON pointer of the value at fault after it (excerpted), unescaped. */
export function messageText(d: Diagnostic): string {
  return d.pointer === undefined ? d.message : `${d.message} at ${placeName(pointerExcerpt(d.pointer))}`;
}
