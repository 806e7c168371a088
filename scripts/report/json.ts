/**
 * Diagnostics as `check --json` prints them: one JSON object per checked file per line,
 * and nothing else: `{"file","umid","ok","errors":[{"rule","message","pointer","line",
 * "column"}],"warnings":[...]}`, each line escaped as every line printed is (printable).
 */
import { pointerExcerpt } from "../../core/excerpt.ts";
import { printable, type Diagnostic } from "./diagnostics.ts";

/** A file checked: its path as diagnostics name it, and its manifest's UMID (null: none). */
interface CheckedFile {
  file: string;
  umid: string | null;
}

/** One line per file of `files`, in their order, with its diagnostics (in theirs) by severity. */
export function jsonLines(files: readonly CheckedFile[], diagnostics: readonly Diagnostic[]): string[] {
  // Not Map.groupBy: Node 20 has none.
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const listed = byFile.get(d.file);
    if (listed === undefined) byFile.set(d.file, [d]);
    else listed.push(d);
  }
  return files.map(({ file, umid }) => {
    const mine = byFile.get(file) ?? [];
    const of = (severity: Diagnostic["severity"]) => mine.filter((d) => d.severity === severity).map(problemJson);
    const [errors, warnings, notes] = [of("error"), of("warning"), of("note")];
    const record = { file, umid, ok: errors.length === 0, errors, warnings, ...(notes.length > 0 && { notes }) };
    return printable(JSON.stringify(record));
  });
}

function problemJson(d: Diagnostic) {
  return {
    rule: d.rule,
    message: d.message,
    pointer: d.pointer === undefined ? null : pointerExcerpt(d.pointer),
    line: d.line ?? null,
    column: d.column ?? null,
  };
}
