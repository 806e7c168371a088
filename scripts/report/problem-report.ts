/**
 * How `check` and `build` print the problems they found, on one stream (stdout, as tsc
 * and eslint print theirs: they are what the command reports; stderr is for the run
 * itself): sorted by place, capped (a million broken manifests must not print a million
 * lines first), each with a code frame on a terminal and a fix hint where there is one,
 * then the counts by rule; under GitHub Actions, annotations too, within what GitHub
 * shows: 10 error and 10 warning annotations per step ("Annotations" in GitHub's docs on
 * workflow commands), then one notice that says what was left out.
 */
import { readFileSync } from "node:fs";
import { codeFrame } from "./code-frame.ts";
import { SEVERITIES } from "../../core/rules/index.ts";
import { countsByRule, printable, sortDiagnostics, type Diagnostic } from "./diagnostics.ts";
import { fixHint } from "./fix-hints.ts";
import { annotations, githubAnnotation } from "./github.ts";
import { painted, terminalStyle, type TerminalStyle } from "./terminal-style.ts";
import { formatDiagnostic, formatPainted, SEVERITY_COLOUR } from "./text.ts";

export interface ReportOptions {
  /** Problems printed, at most; 0 prints them all. */
  maxProblems: number;
  write: (line: string) => void;
  style?: TerminalStyle;
  /** Whether GitHub Actions runs the command (GITHUB_ACTIONS=true). */
  annotate?: boolean;
}

/** Prints `diagnostics` sorted and capped, then a line of counts by rule; annotations after them when asked for. */
export function printProblems(diagnostics: readonly Diagnostic[], options: ReportOptions): void {
  const { maxProblems, write } = options;
  const style = options.style ?? terminalStyle(process.stdout);
  const paint = (colour: Parameters<typeof painted>[1], text: string) => painted(style.colour, colour, text);
  const sorted = sortDiagnostics(diagnostics);
  const shown = maxProblems === 0 ? sorted : sorted.slice(0, maxProblems);
  const texts = new SourceTexts();
  for (const d of shown) {
    write(formatPainted(d, paint));
    if (style.frame && d.line !== undefined) {
      const text = texts.of(d.file);
      if (text !== undefined)
        for (const line of codeFrame(text, d.line, d.column ?? 1, (mark) => paint(SEVERITY_COLOUR[d.severity], mark)))
          write(line);
    }
    const hint = fixHint(d, texts.of(d.file, d.rule.startsWith("signature/")));
    if (hint !== undefined) write(`  ${paint("cyan", "hint:")} ${printable(hint)}`);
    if (style.frame) write("");
  }
  if (shown.length < sorted.length)
    write(`… and ${sorted.length - shown.length} more problems not shown (--max-problems 0 shows all)`);
  if (sorted.length > 0) write(rulesLine(sorted));
  if (options.annotate ?? process.env.GITHUB_ACTIONS === "true") for (const line of annotations(sorted)) write(line);
}

/** `Errors by rule: …; warnings by rule: …`, for what there is. */
function rulesLine(diagnostics: readonly Diagnostic[]): string {
  const parts = SEVERITIES.flatMap((severity) => {
    const mine = diagnostics.filter((d) => d.severity === severity);
    return mine.length === 0 ? [] : [`${severity}s by rule: ${countsByRule(mine)}`];
  });
  return `${parts.join("; ").replace(/^./, (c) => c.toUpperCase())}.`;
}

/**
 * Prints diagnostics one per line, uncapped and without frames or hints (for a command that
 * reports a few, such as `sign`), with GitHub annotations too when run by GitHub Actions.
 */
export function printDiagnostics(diagnostics: Diagnostic[], write: (line: string) => void): void {
  const annotate = process.env.GITHUB_ACTIONS === "true";
  for (const d of diagnostics) {
    write(formatDiagnostic(d));
    if (annotate) console.log(githubAnnotation(d));
  }
}

/** The text of the files problems are in, read again only to show a frame or a hint, one file at a time. */
class SourceTexts {
  #file: string | undefined;
  #text: string | undefined;

  of(file: string, wanted = true): string | undefined {
    if (!wanted) return undefined;
    if (file !== this.#file) {
      this.#file = file;
      try {
        this.#text = readFileSync(file, "utf8");
      } catch {
        this.#text = undefined;
      }
    }
    return this.#text;
  }
}

/** Prints a warning of the run itself (not of a file checked) to stderr, its text made printable. */
export function printWarning(message: string): void {
  console.error(printable(`manifest-resolver: warning: ${message}`));
}
