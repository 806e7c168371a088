/**
 * The status list allocation kept in the content folder (issue 27): `_status/<listId>.json`, one file per list,
 * `{"url": <the list's URL>, "entries": [[index, UMID], ...]}`, entries sorted by index, one a line, so that git
 * merges two changes that allocate into one list. Each index lies in its list and is allocated once; each UMID has
 * one entry across all lists. `sign --status-list` writes it (scripts/edit/status-allocation.ts), the build derives
 * the lists it publishes from it and `_routes.json` (scripts/plan/status-lists.ts), and the manifests' statusRefs
 * are held to it (status-refs.ts).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { quoted } from "../../core/excerpt.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { isTrustworthyUrl } from "../../core/secure-url.ts";
import { STATUS_LIST_ENTRIES } from "../../core/status-list/bitstring.ts";
import { LIST_ID, statusListUrl } from "../../core/status-list/list-entry-ref.ts";
import { STATUS_LIST_PREFIX } from "../../core/umid-path.ts";
import { displayPath, LIST_FILE_SHAPE, MAX_LIST_FILE_BYTES, readSourceText } from "../read/files.ts";
import { placed, placeOf, type SourceFile } from "../read/source.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

/** The folder of the content root that holds the allocation. */
export const STATUS_FOLDER = "_status";

export interface AllocatedList {
  listId: string;
  /** The list's URL, as its file says. */
  url: string;
  /** The file, to place its entries. */
  source: SourceFile;
  /** Its well-formed entries in the file's order: [index, UMID, position in the file's array]. */
  entries: [number, string, number][];
}

export interface StatusAllocation {
  /** Every file of the allocation, read or not. */
  files: string[];
  /** Every list that could be read, by listId. */
  lists: AllocatedList[];
  /** The entry of each UMID (its first, when it has two): its list, index and position in the list's file. */
  entryOf: Map<string, { list: AllocatedList; index: number; at: number }>;
  /** The lists by URL. */
  byUrl: Map<string, AllocatedList>;
  diagnostics: Diagnostic[];
}

/** No list: a content folder without `_status/`. */
export function emptyAllocation(): StatusAllocation {
  return { files: [], lists: [], entryOf: new Map(), byUrl: new Map(), diagnostics: [] };
}

/**
 * The allocation in the content root `dir`, checked on its own; `resolverUrl` (UM_RESOLVER_URL, or "") is where its
 * lists must be published when set.
 */
export function checkStatusAllocation(dir: string, resolverUrl: string): StatusAllocation {
  const allocation = emptyAllocation();
  const folder = join(dir, STATUS_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return allocation;
  }
  for (const name of names) {
    // sign's lock and temporary files (file-lock.ts, json-file.ts) are no part of the allocation.
    if (name.startsWith(".") || name.endsWith(".lock")) continue;
    allocation.files.push(displayPath(join(folder, name)));
    const list = readList(join(folder, name), name, resolverUrl, allocation.diagnostics);
    if (list === undefined) continue;
    allocation.lists.push(list);
    allocation.byUrl.set(list.url, list);
    for (const [index, umid, at] of list.entries) {
      const first = allocation.entryOf.get(umid);
      if (first === undefined) allocation.entryOf.set(umid, { list, index, at });
      else {
        const there = placeOf(first.list.source, `/entries/${first.at}/1`);
        allocation.diagnostics.push(
          placed(
            list.source,
            `/entries/${at}/1`,
            "status-list/duplicate-umid",
            `UMID ${quoted(umid)} already has entry ${first.index} at ${there}`,
          ),
        );
      }
    }
  }
  return allocation;
}

/** One list's file; undefined when it cannot be read as one (reported). */
function readList(
  path: string,
  name: string,
  resolverUrl: string,
  diagnostics: Diagnostic[],
): AllocatedList | undefined {
  const file = displayPath(path);
  const listId = name.endsWith(".json") ? name.slice(0, -".json".length) : "";
  if (!LIST_ID.test(listId)) {
    diagnostics.push(
      diagnostic("status-list/bad-allocation", { file }, "a list's file is named <listId>.json, listId [a-z0-9]{1,64}"),
    );
    return undefined;
  }
  const read = readSourceText(path, MAX_LIST_FILE_BYTES);
  if ("diagnostic" in read) {
    diagnostics.push(read.diagnostic);
    return undefined;
  }
  const parsed = parseJson(read.text, LIST_FILE_SHAPE);
  if (!parsed.ok) {
    diagnostics.push(diagnostic(parsed.problem.rule, { file }, parsed.problem.message));
    return undefined;
  }
  const source = { file, map: parsed.source };
  const bad = (pointer: string, message: string, rule: RuleId = "status-list/bad-allocation") =>
    diagnostics.push(placed(source, pointer, rule, message));
  const value = parsed.value;
  if (!isJsonObject(value)) {
    bad("", 'must be an object: {"url": ..., "entries": [...]}');
    return undefined;
  }
  for (const member of Object.keys(value))
    if (member !== "url" && member !== "entries") bad(`/${member}`, `unknown member ${quoted(member)}`);
  const { url, entries } = value;
  if (typeof url !== "string") {
    bad("/url", "must be the list's URL, a string");
    return undefined;
  }
  if (!Array.isArray(entries)) {
    bad("/entries", "must be an array of [index, UMID] pairs");
    return undefined;
  }
  const expected = resolverUrl === "" ? undefined : statusListUrl(resolverUrl, listId);
  if (expected !== undefined ? url !== expected : !isTrustworthyUrl(url) || !url.endsWith(listPath(listId)))
    bad(
      "/url",
      `must be ${expected === undefined ? `an https: URL ending ${listPath(listId)}` : quoted(expected)}, where this ` +
        `resolver publishes list ${listId}, not ${quoted(url)}`,
      "status-list/url-mismatch",
    );
  const list: AllocatedList = { listId, url, source, entries: [] };
  /** Where each index is listed first. */
  const seen = new Map<number, number>();
  for (const [i, entry] of entries.entries()) {
    const pointer = `/entries/${i}`;
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[1] !== "string" || entry[1] === "") {
      bad(pointer, "must be a pair [index, UMID]");
      continue;
    }
    const [index, umid] = entry as [unknown, string];
    if (typeof index !== "number" || !Number.isSafeInteger(index)) {
      bad(`${pointer}/0`, "must be an index, an integer");
      continue;
    }
    if (index < 0 || index >= STATUS_LIST_ENTRIES) {
      bad(`${pointer}/0`, `index ${index} lies outside the list: 0 to ${STATUS_LIST_ENTRIES - 1}`, OUT_OF_RANGE);
      continue;
    }
    const first = seen.get(index);
    if (first !== undefined) {
      bad(
        `${pointer}/0`,
        `index ${index} is already allocated at ${placeOf(source, `/entries/${first}/0`)}`,
        "status-list/duplicate-index",
      );
      continue;
    }
    seen.set(index, i);
    list.entries.push([index, umid, i]);
  }
  return list;
}

const OUT_OF_RANGE = "status-list/index-out-of-range";

function listPath(listId: string): string {
  return `${STATUS_LIST_PREFIX}/${listId}`;
}
