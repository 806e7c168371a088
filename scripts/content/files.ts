/**
 * Which files of a content directory are what: every `*.json` and `*.jsonld` file is a
 * manifest, except files whose name starts with `_` (`_routes.json` among them). Hidden
 * files and folders, and `node_modules`, are not content.
 */
import fg from "fast-glob";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { decodeUtf8 } from "../../edge/base64url.ts";
import type { Diagnostic } from "../diagnostics.ts";
import type { ShapeLimits } from "../json/strict-json.ts";

export const ROUTES_FILE = "_routes.json";
export const KEYS_FILE = "_keys.json";

/**
 * `_routes.json` and `_keys.json` grow with the registry (an entry per UMID or key), so
 * the per-manifest limits do not apply to them; these bounds do.
 */
export const MAX_LIST_FILE_BYTES = 64 * 1024 * 1024;
export const LIST_FILE_SHAPE: ShapeLimits = { maxDepth: 10, maxArrayItems: Number.POSITIVE_INFINITY };

/**
 * Paths of the manifest files under `dir`, relative to it, in a stable order. Streamed:
 * fast-glob's own result list holds several times the memory of the names (measured at a
 * million files: 212 against 74 MB of heap), and a build keeps the names to the end.
 */
export async function manifestFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const name of fg.stream(["**/*.json", "**/*.jsonld"], { cwd: dir, ignore: ["**/_*", "**/node_modules/**"], onlyFiles: true })) {
    files.push(name as string);
  }
  return files.sort();
}

/** How a file is named in diagnostics: relative to the working directory, as compilers do. */
export function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

export type SourceText = { text: string } | { diagnostic: Diagnostic; missing: boolean };

/**
 * A file's text, or the diagnostic that says why it cannot be read as UTF-8 text within
 * `maxBytes`. Synchronous on purpose: the CLI has nothing else to do meanwhile, and checks
 * run on worker threads, where a direct system call beats a trip through libuv's pool.
 */
export function readSourceText(path: string, maxBytes: number): SourceText {
  const file = displayPath(path);
  let bytes: Uint8Array;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    // The size is checked before reading: an oversized file is refused, not loaded.
    const { size } = fstatSync(fd);
    if (size > maxBytes) {
      const message = `file is ${size} bytes; the limit is ${maxBytes} (UM_MAX_MANIFEST_BYTES)`;
      return { diagnostic: { severity: "error", file, rule: "limits/size", message }, missing: false };
    }
    bytes = readFileSync(fd);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    const message = missing ? "file not found" : (error as Error).message;
    return { diagnostic: { severity: "error", file, rule: "file/unreadable", message }, missing };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return { diagnostic: { severity: "error", file, rule: "json/encoding", message: "file is not valid UTF-8" }, missing: false };
  }
  // A byte order mark carries no content; editors on some systems add one.
  return { text: text.startsWith("\uFEFF") ? text.slice(1) : text };
}
