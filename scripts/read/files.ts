/**
 * Which files of a content directory are what: every `*.json` and `*.jsonld` file is a
 * manifest, except files whose name starts with `_` (`_routes.json` among them) and those
 * in folders whose name does. Hidden files and folders, and `node_modules`, are not content.
 * Symbolic links are listed apart, never followed: git records a link, not what it points
 * at, so `check --base` would read at a revision something else than the build publishes.
 */
import { type BigIntStats, closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { decodeUtf8 } from "../../core/base64url.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { ShapeLimits } from "../../core/json/strict-json.ts";
import { displayPath } from "./display-path.ts";

export const ROUTES_FILE = "_routes.json";
export const KEYS_FILE = "_keys.json";
export const UNSIGNED_FILE = "_unsigned.json";
/** The files that configure a content root; they mean something only at its top. */
export const LIST_FILES: ReadonlySet<string> = new Set([ROUTES_FILE, KEYS_FILE, UNSIGNED_FILE]);

/**
 * `_routes.json`, `_keys.json` and `_unsigned.json` grow with the registry (an entry per UMID, key or file), so
 * the per-manifest limits do not apply to them; these bounds do.
 */
export const MAX_LIST_FILE_BYTES = 64 * 1024 * 1024;
export const LIST_FILE_SHAPE: ShapeLimits = { maxDepth: 10, maxArrayItems: Number.POSITIVE_INFINITY };

/** A file's largest size, and what sets it: the message that refuses a larger file names it, for the reader to change. */
export interface ByteLimit {
  bytes: number;
  /** The setting, or what the limit is fixed for: `UM_MAX_MANIFEST_BYTES`, say. */
  setBy: string;
}
export const LIST_FILE_LIMIT: ByteLimit = {
  bytes: MAX_LIST_FILE_BYTES,
  setBy: "fixed for list files: _routes.json, _keys.json, _unsigned.json, _resolvers.json, _status/",
};
export const manifestByteLimit = ({ maxManifestBytes }: { maxManifestBytes: number }): ByteLimit => ({
  bytes: maxManifestBytes,
  setBy: "UM_MAX_MANIFEST_BYTES",
});

export interface ContentListing {
  /** The manifest files, relative to the folder, in a stable order. */
  manifests: string[];
  /**
   * Every other file, hidden ones and `_` ones included (but nothing in `node_modules` or
   * `.git`): none is published, but each is committed, so each is looked at for private
   * keys and for list files out of place.
   */
  others: string[];
  /** Symbolic links, to files or folders alike: refused as content. */
  links: string[];
}

/**
 * The files under `dir`, relative to it, in one walk: a folder at a time, with the types
 * its listing gives (no status per file), `node_modules` and `.git` folders skipped, links
 * never followed. By hand, since a glob library spends most of its time matching patterns
 * that this walk does not have: fast-glob took 0.2 s for 20,000 files, this takes 0.03.
 */
export async function listContent(dir: string): Promise<ContentListing> {
  const listing: ContentListing = { manifests: [], others: [], links: [] };
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const name = prefix + entry.name;
      if (entry.isSymbolicLink()) listing.links.push(name);
      else if (entry.isFile()) (isManifestName(name) ? listing.manifests : listing.others).push(name);
      else if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
        await walk(join(folder, entry.name), `${name}/`);
    }
  };
  await walk(dir, "");
  listing.manifests.sort();
  listing.others.sort();
  listing.links.sort();
  return listing;
}

/** Folders that are never content: installed packages, and a nested repository's store. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/** `*.json` and `*.jsonld`, in no folder and with no name that starts with `_` or `.`. */
export function isManifestName(name: string): boolean {
  return (name.endsWith(".json") || name.endsWith(".jsonld")) && !/(?:^|\/)[_.]/.test(name);
}

export { displayPath } from "./display-path.ts";

/** The first `maxBytes` of a file (all of a smaller one); nothing for a file that cannot be read. */
export function readHead(path: string, maxBytes: number): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(Math.min(fstatSync(fd).size, maxBytes));
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A file's bytes, with the status of the descriptor they were read from; or why it could not be read. */
export type SourceBytes = { bytes: Uint8Array; stat: BigIntStats } | { diagnostic: Diagnostic; missing: boolean };

/** A file's text and bytes, with the status of the descriptor they were read from; or why it could not be read. */
export type SourceText =
  | { text: string; bytes: Uint8Array; stat: BigIntStats }
  | { diagnostic: Diagnostic; missing: boolean };

/**
 * A file's text, or the diagnostic that says why it cannot be read as UTF-8 text within
 * `limit`. Synchronous on purpose: the CLI has nothing else to do meanwhile, and checks
 * run on worker threads, where a direct system call beats a trip through libuv's pool.
 */
export function readSourceText(path: string, limit: ByteLimit): SourceText {
  const file = displayPath(path);
  const read = readSourceBytes(path, limit, file);
  if ("diagnostic" in read) return read;
  const decoded = decodeSource(read.bytes, file);
  return "diagnostic" in decoded ? decoded : { ...decoded, ...read };
}

/** A file's bytes within `limit`, or why they cannot be read; `file` is how diagnostics name it. */
export function readSourceBytes(path: string, limit: ByteLimit, file = displayPath(path)): SourceBytes {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    // The size is checked before reading: an oversized file is refused, not loaded.
    const stat = fstatSync(fd, { bigint: true });
    const size = Number(stat.size);
    if (size > limit.bytes) {
      const message = `file is ${size} bytes; the limit is ${limit.bytes} (${limit.setBy})`;
      return { diagnostic: diagnostic("limits/size", { file }, message), missing: false };
    }
    return { bytes: readFileSync(fd), stat };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    const message = missing ? "file not found" : (error as Error).message;
    return { diagnostic: diagnostic("file/unreadable", { file }, message), missing };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The text of a file's bytes, or the diagnostic that says they are not UTF-8. */
export function decodeSource(
  bytes: Uint8Array,
  file: string,
): { text: string } | { diagnostic: Diagnostic; missing: false } {
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return { diagnostic: diagnostic("json/encoding", { file }, "file is not valid UTF-8"), missing: false };
  }
  // A byte order mark carries no content; editors on some systems add one.
  return { text: text.startsWith("\uFEFF") ? text.slice(1) : text };
}
