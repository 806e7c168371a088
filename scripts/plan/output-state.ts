/**
 * The output's state: the SHA-256 of each index file the plan made (index shards,
 * resolver.json), which a warm build compares with its own plan's to find the few files
 * that changed without reading the others. It is a file of the output itself
 * (`STATE_PATH`), so that it is replaced together with the output it describes, and a cold
 * and a warm build of the same content write it alike.
 */
import { createHash } from "node:crypto";
import { utf8 } from "../../core/base64url.ts";
import { INDEX_FORMAT } from "../../edge/records.ts";
import type { OutputFile } from "./output-file.ts";

export const STATE_PATH = "index/digests.json";
/** The state's own format; with INDEX_FORMAT, what a warm build must find to build in place. */
const STATE_FORMAT = 1;

/** Each index file's path, relative to the output root, with the lowercase hex SHA-256 of its bytes. */
export type FileDigests = Map<string, string>;

/** `files`, as they come, noting each one's digest in `digests`; then the state file that lists them. */
export function* withState(files: Iterable<OutputFile>, digests: FileDigests): Iterable<OutputFile> {
  for (const file of files) {
    digests.set(file.path, createHash("sha256").update(file.bytes).digest("hex"));
    yield file;
  }
  yield stateFile(digests);
}

function stateFile(digests: FileDigests): OutputFile {
  const lines = [...digests].map(([path, digest]) => `${JSON.stringify(path)}:"${digest}"`);
  return {
    path: STATE_PATH,
    bytes: utf8(`{"format":${STATE_FORMAT},"index":${INDEX_FORMAT},"files":{\n${lines.join(",\n")}\n}}\n`),
  };
}

/**
 * The digests a state file lists; undefined when it is not one this build wrote in this format (a warm build then
 * builds cold), or names a path that could leave the output folder.
 */
export function parseState(text: string): FileDigests | undefined {
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { format, index, files } = (state ?? {}) as { format?: unknown; index?: unknown; files?: unknown };
  if (format !== STATE_FORMAT || index !== INDEX_FORMAT || typeof files !== "object" || files === null)
    return undefined;
  const digests: FileDigests = new Map();
  for (const [path, digest] of Object.entries(files)) {
    if (!isOutputPath(path) || typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) return undefined;
    digests.set(path, digest);
  }
  return digests;
}

/**
 * Whether `path` names a file inside an output folder: relative, `/`-separated, no empty, `.` or `..` step. A warm
 * build removes and renames files named by the previous output; none of them may be outside it.
 */
export function isOutputPath(path: string): boolean {
  return (
    path.length > 0 &&
    !path.includes("\\") &&
    !path.includes("\0") &&
    path.split("/").every((step) => step !== "" && step !== "." && step !== "..")
  );
}
