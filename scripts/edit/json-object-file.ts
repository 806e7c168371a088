/**
 * A publisher's JSON object file edited in place: read, changed and written back whole, in its own indentation
 * style, under its lock (file-lock.ts), by the one atomic writer. A file that is not a strict JSON object is not
 * edited: the caller says what is wrong with it.
 */
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { lineColumn } from "../../core/json/source-map.ts";
import { displayPath, LIST_FILE_LIMIT, LIST_FILE_SHAPE, readSourceText } from "../read/files.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { DEFAULT_STYLE, detectStyle, formatJson } from "./json-file.ts";
import { withFileLock } from "./file-lock.ts";

/** The object `edit` returns in place of the file's (`{}` for a file not there), or why it was not edited. */
export async function editJsonObject(
  path: string,
  lockWaitMs: number,
  edit: (current: Record<string, unknown>) => Record<string, unknown> | string,
): Promise<{ ok: true } | { ok: false; problem: string }> {
  return withFileLock(path, lockWaitMs, async () => {
    const read = readSourceText(path, LIST_FILE_LIMIT);
    if ("diagnostic" in read && !read.missing)
      return { ok: false, problem: `${read.diagnostic.file}: ${read.diagnostic.message}` };
    const text = "text" in read ? read.text : undefined;
    let current: Record<string, unknown> = {};
    if (text !== undefined) {
      const parsed = parseJson(text, LIST_FILE_SHAPE);
      if (!parsed.ok) {
        const { line, column } = lineColumn(text, parsed.problem.offset);
        return { ok: false, problem: `${displayPath(path)}:${line}:${column}: ${parsed.problem.message}` };
      }
      if (!isJsonObject(parsed.value)) return { ok: false, problem: `${displayPath(path)}: not a JSON object` };
      current = parsed.value;
    }
    const edited = edit(current);
    if (typeof edited === "string") return { ok: false, problem: edited };
    // A file with no member yet (`init` writes `{}`) has no style of its own to keep.
    const style = text === undefined || Object.keys(current).length === 0 ? DEFAULT_STYLE : detectStyle(text);
    await writeFileAtomically(path, formatJson(edited, style));
    return { ok: true };
  });
}
