/**
 * Opting in to publish a payload without a verifiable signature: `_unsigned.json` of the
 * content root (see unsigned-schema.ts), or `check --allow-unsigned FILE` for files outside
 * a content folder. Explicit and per file, so that nothing unsigned is ever published by
 * default; pinned to the canonical form's digest, so that a later edit of an opted-in file
 * needs a new, reviewable opt-in.
 */
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { quoted } from "../../core/excerpt.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { displayPath, LIST_FILE_SHAPE, LIST_FILE_LIMIT, readSourceText, UNSIGNED_FILE } from "../read/files.ts";
import { parseAndValidate } from "../read/source.ts";

export interface UnsignedOptIn {
  /** The digest the opt-in covers; undefined for `--allow-unsigned`, which covers the file as it is. */
  digest?: string;
  place: string;
}

/** The opt-ins that apply to a run: by absolute file path. */
export interface UnsignedOptIns {
  /** The content root (absolute), when the files checked lie in one, and its `_unsigned.json` as displayed. */
  root?: { dir: string; file: string };
  entries: ReadonlyMap<string, UnsignedOptIn>;
}

/**
 * `_unsigned.json` as it is written, entry by entry: what `check --base` compares with the
 * revision's (scripts/history/unsigned-opt-in-rule.ts), whether or not each entry's file is there.
 */
export interface UnsignedList {
  file: string;
  /** Each entry's path, as written, with its digest and place. */
  entries: ReadonlyMap<string, UnsignedEntry>;
  /** Not JSON, or not its schema: the opt-ins are unknown, and the file's own errors fail the run. */
  unreadable?: true;
}

/** An entry's digest and where it is: `place` is `file:line:col`. */
interface UnsignedEntry {
  digest: string;
  place: string;
  line: number;
  column: number;
}

/** The text of an `_unsigned.json` (`file`): its entries and what is wrong with it as a whole. */
export function readUnsignedText(
  file: string,
  text: string,
  validators: SchemaValidators,
): { list: UnsignedList; diagnostics: Diagnostic[] } {
  const entries = new Map<string, UnsignedEntry>();
  const { value, map, diagnostics } = parseAndValidate(file, text, LIST_FILE_SHAPE, validators.unsigned);
  if (diagnostics.length > 0 || !isJsonObject(value)) return { list: { file, entries, unreadable: true }, diagnostics };
  for (const [name, digest] of Object.entries(value as Record<string, string>)) {
    const { line, column } = map!.place(`/${escapePointerToken(name)}`);
    entries.set(name, { digest, place: `${file}:${line}:${column}`, line, column });
  }
  return { list: { file, entries }, diagnostics };
}

/** `_unsigned.json` of the content root `dir` (absent: no opt-ins); `list`, its entries as written. */
export function checkUnsigned(
  dir: string,
  validators: SchemaValidators,
): { optIns: UnsignedOptIns; file?: string; list?: UnsignedList; diagnostics: Diagnostic[] } {
  const path = join(dir, UNSIGNED_FILE);
  const file = displayPath(path);
  const root = { dir: resolve(dir), file };
  const entries = new Map<string, UnsignedOptIn>();
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    return {
      optIns: { root, entries },
      ...(!read.missing && { file, list: { file, entries: new Map(), unreadable: true } }),
      diagnostics: read.missing ? [] : [read.diagnostic],
    };
  const { list, diagnostics } = readUnsignedText(file, read.text, validators);
  for (const [name, { digest, place, line, column }] of list.entries) {
    const at = { file, pointer: `/${escapePointerToken(name)}`, line, column };
    if (
      name.startsWith("/") ||
      name.includes("\\") ||
      name.split("/").some((part) => part === "" || part === "." || part === "..")
    ) {
      diagnostics.push(
        diagnostic(
          "unsigned/path",
          at,
          `${quoted(name)} must be a file's path below the content root, with / between folders`,
        ),
      );
    } else if (!existsSync(join(dir, name))) {
      diagnostics.push(
        diagnostic("unsigned/stale", at, `no file ${quoted(name)} in ${displayPath(dir)}: remove this opt-in`),
      );
    } else {
      entries.set(join(root.dir, name), { digest, place });
    }
  }
  return { optIns: { root, entries }, file, list, diagnostics };
}

export const NO_OPT_INS: UnsignedOptIns = { entries: new Map() };

/** `check --allow-unsigned FILE…`: opt-ins for files outside any content folder. */
export function commandLineOptIns(files: readonly string[]): UnsignedOptIns {
  return { entries: new Map(files.map((file) => [resolve(file), { place: `--allow-unsigned ${file}` }])) };
}

/** How to opt `path` in: the `_unsigned.json` entry, or the command-line flag outside a content root. */
export function optInAdvice(path: string, digest: string, optIns: UnsignedOptIns): string {
  const absolute = resolve(path);
  const root = optIns.root;
  const rel = root && relative(root.dir, absolute);
  if (root === undefined || rel === undefined || rel.startsWith(".."))
    return `to check it anyway, name it with --allow-unsigned ${displayPath(path)}`;
  return (
    `to publish it unsigned, add ${JSON.stringify(rel.split(sep).join("/"))}: ` +
    `${JSON.stringify(digest)} to ${root.file}`
  );
}
