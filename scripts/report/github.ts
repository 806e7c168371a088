/**
 * Diagnostics as GitHub Actions workflow commands, which show each problem inline on a
 * pull request's diff, within what GitHub shows: 10 annotations of each kind per step
 * ("Annotations" in GitHub's docs on workflow commands); a notice says what was left out.
 */
import { countsByRule, plural, printable, type Diagnostic, type Severity } from "./diagnostics.ts";
import { formatDiagnostic } from "./text.ts";

/** Annotations of one kind GitHub shows per step; it drops the rest without a word. */
const GITHUB_ANNOTATIONS_SHOWN = 10;

/** The workflow command of each severity. */
const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", note: "notice" };

/**
 * A GitHub Actions workflow command that shows the problem inline on a pull request.
 * Values are escaped as the runner expects: %, CR and LF everywhere; also : and , in properties.
 */
export function githubAnnotation(d: Diagnostic): string {
  const data = (s: string) => s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
  const property = (s: string) => data(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
  const place = d.line === undefined ? "" : `,line=${d.line},col=${d.column}`;
  return (
    `::${COMMAND[d.severity]} ` +
    `file=${property(printable(d.file))}${place},title=${property(printable(d.rule))}::${data(formatDiagnostic(d))}`
  );
}

/**
 * The first 10 errors and the first 10 warnings as annotations, then, when there were
 * more, one notice (a third kind, with its own 10) naming how many more, by rule.
 */
export function annotations(diagnostics: readonly Diagnostic[]): string[] {
  const lines: string[] = [];
  const left: Diagnostic[] = [];
  const annotated: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const d of diagnostics) {
    if (annotated[d.severity]++ < GITHUB_ANNOTATIONS_SHOWN) lines.push(githubAnnotation(d));
    else left.push(d);
  }
  if (left.length > 0) {
    const message =
      `${plural(left.length, "more problem")} not annotated (GitHub shows ` +
      `${GITHUB_ANNOTATIONS_SHOWN} errors and ${GITHUB_ANNOTATIONS_SHOWN} warnings per ` +
      `step): ${countsByRule(left)}; 'manifest-resolver check --max-problems 0' prints ` +
      `them all`;
    lines.push(`::notice title=${plural(left.length, "more problem")}::${message.replaceAll("%", "%25")}`);
  }
  return lines;
}
