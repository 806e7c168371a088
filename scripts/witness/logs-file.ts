/**
 * The logs a witness witnesses: a file in C2SP tlog-policy's syntax, of `log <vkey> [<url>]`
 * lines alone (`#` comments and blank lines allowed). A log is its origin, its key's name;
 * every key listed under one origin is trusted for it (a log rotating its key lists both).
 */
import { readFileSync } from "node:fs";
import { parseLogPolicy } from "../../core/tlog/log-policy.ts";
import type { NoteKey } from "../../core/tlog/note-keys.ts";

/** Far more than 256 log lines (the most a policy holds) take. */
const MAX_BYTES = 256 * 1024;

/** The keys trusted for each origin, or why the file gives none (`FILE:line:column: message`). */
export function readLogsFile(path: string): Map<string, NoteKey[]> | string {
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_BYTES) return `${path}: ${bytes.length} bytes, over the ${MAX_BYTES} a list of logs may be`;
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${path}: file not found` : `${path}: ${(error as Error).message}`;
  }
  const parsed = parseLogPolicy(text, { logsOnly: true });
  if (!parsed.ok) return `${path}:${parsed.line}:${parsed.column}: ${parsed.message}`;
  if (parsed.policy.logs.length === 0) return `${path}: lists no log (a line log <vkey> [<url>] for each)`;
  const logs = new Map<string, NoteKey[]>();
  for (const { key } of parsed.policy.logs) logs.set(key.name, [...(logs.get(key.name) ?? []), key]);
  return logs;
}
