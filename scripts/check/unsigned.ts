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

/** `_unsigned.json` of the content root `dir` (absent: no opt-ins). */
export function checkUnsigned(
  dir: string,
  validators: SchemaValidators,
): { optIns: UnsignedOptIns; file?: string; diagnostics: Diagnostic[] } {
  const path = join(dir, UNSIGNED_FILE);
  const file = displayPath(path);
  const root = { dir: resolve(dir), file };
  const entries = new Map<string, UnsignedOptIn>();
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    return {
      optIns: { root, entries },
      ...(!read.missing && { file }),
      diagnostics: read.missing ? [] : [read.diagnostic],
    };
  const { value, map, diagnostics } = parseAndValidate(file, read.text, LIST_FILE_SHAPE, validators.unsigned);
  if (diagnostics.length === 0 && isJsonObject(value)) {
    for (const [name, digest] of Object.entries(value as Record<string, string>)) {
      const pointer = `/${escapePointerToken(name)}`;
      const { line, column } = map!.place(pointer);
      const at = { file, pointer, line, column };
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
        entries.set(join(root.dir, name), { digest, place: `${file}:${line}:${column}` });
      }
    }
  }
  return { optIns: { root, entries }, file, diagnostics };
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
