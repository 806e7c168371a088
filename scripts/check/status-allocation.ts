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
import { isJsonObject, parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { STATUS_LIST_ENTRIES } from "../../core/status-list/bitstring.ts";
import { LIST_ID, statusListUrl } from "../../core/status-list/list-entry-ref.ts";
import { baseUrlProblem } from "../../core/http/base-url.ts";
import { STATUS_LIST_PREFIX } from "../../core/umid-path.ts";
import { serverOf } from "../../core/validate/status-ref.ts";
import { displayPath, LIST_FILE_LIMIT, readSourceText } from "../read/files.ts";
import { placed, placeOf } from "../read/source.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { UmidIndex } from "./umid-index.ts";

/** The folder of the content root that holds the allocation. */
export const STATUS_FOLDER = "_status";

export interface AllocatedList {
  listId: string;
  /** The list's URL, as its file says. */
  url: string;
  /** The file, as diagnostics name it. */
  file: string;
  /** Its well-formed entries in the file's order: the index of each. */
  indices: Int32Array;
  /** Where each of them is in the file's `entries` (its JSON pointer's last token), to place a problem there. */
  positions: Int32Array;
  /** The file's text, read again when asked: the UMIDs are not kept (umidsOf). */
  text: () => string;
}

/** An entry of the allocation: its list and its index there. */
export interface AllocatedEntry {
  list: AllocatedList;
  index: number;
}

/**
 * The allocation as the rules across files and the build read it, in about 40 bytes an entry (a million manifests
 * are allocated): no file's source map is kept, no UMID string (umid-index.ts), and each UMID's entry is one number.
 */
export class StatusAllocation {
  /** Every file of the allocation, read or not. */
  readonly files: string[] = [];
  /** Every list that could be read, in file name order. */
  readonly lists: AllocatedList[] = [];
  /** The lists by the key of their URL (listKey). */
  readonly #byKey = new Map<string, AllocatedList>();
  readonly diagnostics: Diagnostic[] = [];
  /** Each UMID's entry (its first, when it has two): its list's position in `lists` × the capacity + its index. */
  readonly #entries = new UmidIndex();

  get size(): number {
    return this.#entries.size;
  }

  /** The entry allocated to `umid`, if any. */
  entryOf(umid: string): AllocatedEntry | undefined {
    return this.#entryAt(this.#entries.get(umid));
  }

  /** The list at `url`, however it is spelt. */
  listAt(url: string): AllocatedList | undefined {
    return this.#byKey.get(listKey(url));
  }

  /**
   * Gives `umid` entry `index` of the list that is added next (readList, then add), unless it has an entry: then that
   * entry is returned, and nothing changes.
   */
  allocate(umid: string, index: number): AllocatedEntry | { list: undefined; index: number } | undefined {
    const at = this.#entries.add(umid, this.lists.length * STATUS_LIST_ENTRIES + index);
    if (at === undefined || Math.floor(at / STATUS_LIST_ENTRIES) < this.lists.length) return this.#entryAt(at);
    // An entry of the list being read: its index, for the caller to place.
    return { list: undefined, index: at % STATUS_LIST_ENTRIES };
  }

  /** Adds `list`, whose entries readList allocated. */
  add(list: AllocatedList): void {
    this.lists.push(list);
    this.#byKey.set(listKey(list.url), list);
  }

  #entryAt(entry: number | undefined): AllocatedEntry | undefined {
    return entry === undefined
      ? undefined
      : { list: this.lists[Math.floor(entry / STATUS_LIST_ENTRIES)]!, index: entry % STATUS_LIST_ENTRIES };
  }
}

/**
 * `url` as a list is compared, one string however it is spelt (the host's case and trailing dot, a default port, user
 * info, dot segments, percent-encoding, a query, a trailing slash): a relying party may read any spelling as the list,
 * so a statusRef cannot name one list's entry under another spelling unnoticed.
 */
export function listKey(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  let path = parsed.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoded UTF-8: compared as it is.
  }
  return serverOf(parsed) + path.replace(/\/+$/, "");
}

/**
 * The UMID the entry at `index` of `list` is allocated to, if any. Asked for a message only (a borrowed index is
 * rare); the list's UMIDs are then read once, and kept while the list is.
 */
export function holderOf(list: AllocatedList, index: number): string | undefined {
  const at = list.indices.indexOf(index);
  if (at < 0) return undefined;
  const umids = holders.get(list) ?? umidsOf(list);
  holders.set(list, umids);
  return umids[at];
}

const holders = new WeakMap<AllocatedList, string[]>();

/**
 * The UMIDs of `list`'s entries, in the order of its indices, from its file's text read again. A file changed since
 * it was checked is not the list checked: that is an error, not a verdict.
 */
export function umidsOf(list: AllocatedList): string[] {
  const { entries } = JSON.parse(list.text()) as { entries: [number, string][] };
  return Array.from(list.positions, (position, k) => {
    const entry = entries[position];
    if (entry === undefined || entry[0] !== list.indices[k])
      throw new Error(`${list.file} changed while it was checked`);
    return entry[1];
  });
}

/**
 * The allocation in the content root `dir`, checked on its own; `resolverUrl` (UM_RESOLVER_URL, or "") is where its
 * lists must be published when set.
 */
export function checkStatusAllocation(dir: string, resolverUrl: string): StatusAllocation {
  const allocation = new StatusAllocation();
  const folder = join(dir, STATUS_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch (error) {
    // No folder, no allocation; anything else there would be read as an empty one.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      allocation.diagnostics.push(
        diagnostic("status-list/bad-allocation", { file: displayPath(folder) }, "must be a folder of list files"),
      );
    return allocation;
  }
  for (const name of names) {
    // sign's lock and temporary files (file-lock.ts, json-file.ts) are no part of the allocation.
    if (name.startsWith(".") || name.endsWith(".lock")) continue;
    const path = join(folder, name);
    allocation.files.push(displayPath(path));
    const read = readSourceText(path, LIST_FILE_LIMIT);
    if ("diagnostic" in read) allocation.diagnostics.push(read.diagnostic);
    else addListText(allocation, displayPath(path), name, read.text, resolverUrl, () => readAgain(path));
  }
  return allocation;
}

/**
 * Adds to `allocation` the list of the file named `name` in `_status/` (shown as `file`), whose text is `text`, if it
 * can be read as one; what is wrong with it goes to the allocation's diagnostics. `check --base` reads a revision's
 * allocation with it, from git's blobs.
 */
export function addListText(
  allocation: StatusAllocation,
  file: string,
  name: string,
  text: string,
  resolverUrl: string,
  textAgain: () => string = () => text,
): void {
  const list = readList(file, name, text, resolverUrl, allocation, textAgain);
  if (list !== undefined) allocation.add(list);
}

/** The text of the list file at `path`, read again. */
function readAgain(path: string): string {
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    throw new Error(`${displayPath(path)} changed while it was checked: ${read.diagnostic.message}`);
  return read.text;
}

/**
 * A list's file is an object of a pair an entry, a list at most STATUS_LIST_ENTRIES entries: a file of more, which
 * its size allows, is refused as it is parsed, not with a problem an entry (millions of them would exhaust memory).
 */
const ALLOCATION_SHAPE: ShapeLimits = { maxDepth: 3, maxArrayItems: STATUS_LIST_ENTRIES };

/** One list's file; undefined when it cannot be read as one (reported). */
function readList(
  file: string,
  name: string,
  text: string,
  resolverUrl: string,
  allocation: StatusAllocation,
  textAgain: () => string,
): AllocatedList | undefined {
  const { diagnostics } = allocation;
  const listId = name.endsWith(".json") ? name.slice(0, -".json".length) : "";
  if (!LIST_ID.test(listId)) {
    diagnostics.push(
      diagnostic("status-list/bad-allocation", { file }, "a list's file is named <listId>.json, listId [a-z0-9]{1,64}"),
    );
    return undefined;
  }
  const parsed = parseJson(text, ALLOCATION_SHAPE);
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
  // What a client can fetch: a list's URL is a resolver's base URL and a path, held to the base's rule (sign's too).
  const unusable = baseUrlProblem(url);
  if (unusable !== undefined) bad("/url", unusable, "status-list/unusable-url");
  else if (expected !== undefined ? url !== expected : !url.endsWith(listPath(listId)))
    bad(
      "/url",
      `must be ${expected === undefined ? `an https: URL ending ${listPath(listId)}` : quoted(expected)}, where this ` +
        `resolver publishes list ${listId}, not ${quoted(url)}`,
      "status-list/url-mismatch",
    );
  const indices: number[] = [];
  const positions: number[] = [];
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
    const twice = seen.get(index);
    if (twice !== undefined) {
      bad(
        `${pointer}/0`,
        `index ${index} is already allocated at ${placeOf(source, `/entries/${twice}/0`)}`,
        "status-list/duplicate-index",
      );
      continue;
    }
    seen.set(index, i);
    const other = allocation.allocate(umid, index);
    if (other !== undefined) {
      bad(
        `${pointer}/1`,
        `UMID ${quoted(umid)} already has ` +
          (other.list === undefined
            ? `the entry at ${placeOf(source, `/entries/${seen.get(other.index)}/1`)}`
            : `entry ${other.index} of list ${other.list.listId} (${other.list.file})`),
        "status-list/duplicate-umid",
      );
      continue;
    }
    indices.push(index);
    positions.push(i);
  }
  return {
    listId,
    // A copy: the parser's string may be a slice of the file's text, which would keep all of it.
    url: JSON.parse(JSON.stringify(url)) as string,
    file,
    indices: Int32Array.from(indices),
    positions: Int32Array.from(positions),
    text: textAgain,
  };
}

const OUT_OF_RANGE = "status-list/index-out-of-range";

function listPath(listId: string): string {
  return `${STATUS_LIST_PREFIX}/${listId}`;
}
