/**
 * The output's state: the SHA-256 of each index file the plan made (index shards, the route
 * table's files), its size, and the digest of its inputs, which a warm build compares with
 * its own plan's to find the few files that changed without reading the others, nor
 * making those whose inputs are unchanged. It is a blob of the build's store (the cache's,
 * scripts/store/blob-store.ts), found by its digest, which the output's resolver.json
 * names (build-info.ts): so the state is replaced together with the output it describes, a
 * cold and a warm build of the same content write the same bytes, and an output whose state
 * the store lacks is written whole.
 */
import { createHash } from "node:crypto";
import { utf8 } from "../../core/base64url.ts";
import { INDEX_FORMAT } from "../../edge/records.ts";
import { isSha256Hex } from "../store/blob-store.ts";
import type { OutputFile } from "./output-file.ts";

/** The state's own format; with INDEX_FORMAT, what a warm build must find to build in place. */
const STATE_FORMAT = 3;

/** What the state keeps of an index file: the lowercase hex SHA-256 of its bytes, their number, and its inputs. */
export interface FileState {
  digest: string;
  bytes: number;
  inputs?: string;
}

/** Each index file's state, by its path relative to the output root. */
export type FileDigests = Map<string, FileState>;

/**
 * `files`, as they come, noting each one's state in `states`. A file whose inputs are those `previous` kept for its path
 * has the state kept there: its bytes are not made.
 */
export function* withState(
  files: Iterable<OutputFile>,
  states: FileDigests,
  previous: FileDigests = new Map(),
): Iterable<OutputFile> {
  for (const file of files) {
    const before = previous.get(file.path);
    if (file.inputs !== undefined && before?.inputs === file.inputs) states.set(file.path, before);
    else states.set(file.path, stateOf(file));
    yield file;
  }
}

function stateOf(file: OutputFile): FileState {
  const { bytes, inputs } = file;
  const digest = createHash("sha256").update(bytes).digest("hex");
  return inputs === undefined ? { digest, bytes: bytes.byteLength } : { digest, bytes: bytes.byteLength, inputs };
}

/** The state's bytes, to keep in the store: the same states, the same bytes. */
export function stateBlob(states: FileDigests): Uint8Array {
  const lines = [...states].map(
    ([path, { digest, bytes, inputs }]) => `${JSON.stringify(path)}:${JSON.stringify([digest, bytes, inputs ?? null])}`,
  );
  return utf8(`{"format":${STATE_FORMAT},"index":${INDEX_FORMAT},"files":{\n${lines.join(",\n")}\n}}\n`);
}

/**
 * The states a state lists (`value`: its JSON, store/kept-state.ts); undefined when it is not one this build wrote in
 * this format (the build then writes the output whole), or names a path that could leave the output folder.
 */
export function parseState(value: unknown): FileDigests | undefined {
  const { format, index, files } = (value ?? {}) as { format?: unknown; index?: unknown; files?: unknown };
  if (format !== STATE_FORMAT || index !== INDEX_FORMAT || typeof files !== "object" || files === null)
    return undefined;
  const states: FileDigests = new Map();
  for (const [path, kept] of Object.entries(files)) {
    if (!isOutputPath(path) || !Array.isArray(kept) || kept.length !== 3) return undefined;
    const [digest, bytes, inputs] = kept as unknown[];
    if (!isSha256Hex(digest) || !Number.isSafeInteger(bytes) || (inputs !== null && !isSha256Hex(inputs)))
      return undefined;
    states.set(path, inputs === null ? { digest, bytes: bytes as number } : { digest, bytes: bytes as number, inputs });
  }
  return states;
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
