/**
 * The verification cache that `check` and `build` share (docs/security.md, "The verification cache"):
 * for each manifest file, what its check concluded, keyed by the SHA-256 of the run's scope
 * (the tool's identity and every setting a verdict depends on), the file's name in its
 * content root, and the file's bytes; with what else the verdict read (verdict-reads.ts)
 * and what it found there. Expiry is never kept: each run judges it again from the times
 * kept. What a run checks across files (one file per UMID, `_routes.json`) is not cached.
 * Besides its key, an entry may have aliases that find it without reading its file
 * (file-identity.ts): the git blob id or the status of the bytes it verified.
 *
 * One file, written whole under a temporary name and renamed over the old one, so that a
 * reader finds the old file or the new, never a part. Its first line holds the SHA-256 of
 * the rest: a file that does not match it, or does not parse, or holds an entry of the
 * wrong shape, is ignored as if absent and rebuilt. Then come the keys and aliases,
 * sorted, as raw bytes (the table the workers search, loaded without parsing:
 * known-keys.ts), the bodies' digests, and
 * the entries as JSON arrays, what they read and found kept once for all that share it
 * (most share one pin): 100,000 entries are about 25 MB, loaded in about 0.4 s here. Entries a
 * run did not use (another branch's, or production's beside a preview's) are kept, the
 * most recently used first, while they number no more than those it used plus 1,000.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { isRuleId, SEVERITIES } from "../../core/rules/index.ts";
import type { Settings } from "../config.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import { BodyStore } from "./body-store.ts";
import { KEY_BYTES, KEY_KINDS, keyTable, KnownKeys, ROW_BYTES, type KeyKind } from "./known-keys.ts";
import { NotACacheFile, readRegularFile } from "./regular-file.ts";
import { toolIdentity } from "./tool-identity.ts";
import { found, type ReadContext, type VerdictReads } from "./verdict-reads.ts";

const FILE = "verification.json";
const FORMAT = 4;
/** The first line's length, spaces included: written last, once the digest of the rest is known. */
const HEADER_BYTES = 160;
/** Entries joined into one write: few system calls, never the whole file in memory at once. */
const WRITE_ROWS = 10_000;
const KEPT_BEYOND_USED = 1000;
/** Far more than a million entries take (about 230 MB): a larger file is not one this tool wrote. */
const MAX_FILE_BYTES = 1024 ** 3;

/** A diagnostic as kept: its file is the one the entry is for, wherever that is now displayed. */
export type KeptDiagnostic = Omit<Diagnostic, "file">;

/**
 * The members whose places an entry keeps, to place what a recalled result reports there
 * without reading its file: the @id (named by the rules across files), and the times
 * freshness reads.
 */
export const PLACED_MEMBERS: readonly string[] = ["/@id", "/issuedAt", "/expiresAt"];

/** Line and column of each of PLACED_MEMBERS in turn; 0, 0 for one the file lacks: numbers, for a million entries. */
export type KeptPlaces = number[];

/** A body in the cache's body store. */
export interface StoredBody {
  /** Its SHA-256, lowercase hex, as its ETag carries it. */
  digest: string;
  bytes: number;
}

/** What one file's check concluded, as the cache keeps it. */
export interface CachedVerdict {
  umid: string | null;
  /**
   * Its body, the canonical form, for a manifest that claims a UMID and is an object: the store
   * holds it only once published; a failing manifest's is kept for its digest alone.
   */
  body: StoredBody | null;
  /** `issuedAt` in milliseconds since the epoch, when it names an instant. */
  issuedAt: number | null;
  /** The values freshness reads (core/validate/freshness.ts), as written. */
  times: { issuedAt?: unknown; expiresAt?: unknown };
  places: KeptPlaces;
  legacy: string | null;
  reads: VerdictReads;
  found: string;
  /** What the check found but freshness. */
  diagnostics: KeptDiagnostic[];
}

/**
 * An entry as stored: [umid, body bytes (null: no body), issuedAt, times, places, legacy,
 * index of [reads, found], diagnostics, last used].
 */
type StoredEntry = [
  string | null,
  number | null,
  number | null,
  CachedVerdict["times"],
  KeptPlaces,
  string | null,
  number,
  KeptDiagnostic[],
  number,
];

/** A key of an entry (its bytes', or an alias), as latin1 text, with its kind. */
type KeptKey = [string, KeyKind];

/** An alias of a file's entry (file-identity.ts). */
export interface Alias {
  key: Uint8Array;
  kind: KeyKind;
}

/** The scope of a run's keys: the tool's identity and the settings a verdict depends on. */
export function cacheScope(settings: Settings, tool = toolIdentity()): string {
  const { standardsUrl, contextUrl, resolverUrl, limits } = settings;
  return createHash("sha256")
    .update(JSON.stringify({ format: FORMAT, tool, standardsUrl, contextUrl, resolverUrl, limits }))
    .digest("base64url");
}

/** The key of a file's `bytes`, after `prefix` (`keyPrefix`): hashed in turn, never copied together. */
export function cacheKey(prefix: Uint8Array, bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(prefix).update(bytes).digest();
}

/** What precedes a file's bytes in its key: the scope and the file's name in its content root. */
export function keyPrefix(scope: string, name: string): Uint8Array {
  return Buffer.from(`${scope}\0${name}\0`);
}

/**
 * The entries a run may use: the table of every key, whether each may be used (shared memory, for the workers), and
 * each by its position.
 */
export interface UsableEntries {
  known: KnownKeys;
  usable: Uint8Array;
  verdictAt(position: number): CachedVerdict;
  /** Keeps `alias` for the entry at `position`, found by reading its file. */
  learn(position: number, alias: Alias): void;
}

export class VerificationCache {
  readonly #file: string;
  readonly #stored: Stored;
  readonly #added: Row[] = [];
  /** What entries read and found, each once; the stored ones first, so their indices stand. */
  readonly #deps: [VerdictReads, string][];
  readonly #depIndex: Map<string, number>;
  /** Which stored entries this run used. */
  readonly #used: Uint8Array;
  /** Aliases this run learnt of stored entries it recalled by reading their files. */
  readonly #learnt = new Map<number, Alias>();
  readonly #started = Date.now();
  /** Why the cache file on disk was ignored, if it was. */
  readonly ignored?: string;
  /** The bodies, when a build uses the cache. */
  readonly bodies?: BodyStore;

  constructor(
    readonly dir: string,
    withBodies: boolean,
  ) {
    this.#file = join(dir, FILE);
    const loaded = load(this.#file);
    this.#stored = loaded.stored;
    if (loaded.ignored !== undefined) this.ignored = loaded.ignored;
    this.#used = new Uint8Array(this.#stored.entries.length);
    this.#deps = [...this.#stored.deps];
    this.#depIndex = new Map(this.#deps.map((dep, i) => [JSON.stringify(dep), i]));
    if (withBodies) this.bodies = new BodyStore(join(dir, "bodies"));
  }

  /**
   * The entries whose reads still find what they found in `context`; for a build, only
   * those whose body is in the store (the others are checked again, which writes it).
   */
  usable(context: ReadContext): UsableEntries {
    const { table, digests, entries, deps } = this.#stored;
    const stillFound = deps.map(([reads, was]) => found(reads, context) === was);
    const usable = new Uint8Array(new SharedArrayBuffer(entries.length));
    entries.forEach((entry, i) => {
      // A failing manifest's digest is kept for `check --summary`, but a build never publishes its body.
      const failing = entry[7].some((d) => d.severity === "error");
      const bodyHeld = this.bodies === undefined || entry[1] === null || failing || this.bodies.holds(hex(digests, i));
      usable[i] = stillFound[entry[6]] === true && bodyHeld ? 1 : 0;
    });
    const shared = new Uint8Array(new SharedArrayBuffer(table.byteLength));
    shared.set(table);
    return {
      known: new KnownKeys(shared),
      usable,
      verdictAt: (position) => {
        this.#used[position] = 1;
        const [umid, bytes, issuedAt, times, places, legacy, dep, diagnostics] = entries[position]!;
        const [reads, was] = deps[dep]!;
        const body = bytes === null ? null : { digest: hex(digests, position), bytes };
        return { umid, body, issuedAt, times, places, legacy, reads, found: was, diagnostics };
      },
      learn: (position, alias) => this.#learnt.set(position, alias),
    };
  }

  /** Keeps a new entry, serialized at once: a cold run of many files holds strings, not objects. */
  add(key: Uint8Array, alias: Alias | undefined, verdict: CachedVerdict): void {
    const v = verdict;
    const entry: StoredEntry = [
      v.umid,
      v.body?.bytes ?? null,
      v.issuedAt,
      v.times,
      v.places,
      v.legacy,
      this.#depOf(v.reads, v.found),
      v.diagnostics,
      this.#started,
    ];
    const keys: KeptKey[] = [[latin1(key), KEY_KINDS.bytes]];
    if (alias !== undefined) keys.push([latin1(alias.key), alias.kind]);
    this.#added.push({ keys, digest: v.body?.digest ?? "", json: JSON.stringify(entry), usedAt: this.#started });
  }

  #depOf(reads: VerdictReads, was: string): number {
    const text = JSON.stringify([reads, was]);
    let i = this.#depIndex.get(text);
    if (i === undefined) {
      i = this.#deps.push([reads, was]) - 1;
      this.#depIndex.set(text, i);
    }
    return i;
  }

  /**
   * Writes the entries used and added, and the most recent others, as it goes (the digest
   * goes into the fixed-length first line last); then removes the bodies no entry kept
   * names. A run that added nothing writes nothing.
   */
  save(): void {
    if (this.#added.length === 0 && this.#learnt.size === 0) return;
    const { table, digests, entries } = this.#stored;
    const keysOf = storedKeys(table, entries.length);
    const addedKeys = new Set(this.#added.map((row) => row.keys[0]![0]));
    const old = entries.map((_, i) => i).filter((i) => !addedKeys.has(keysOf[i]![0]![0]));
    const used = old.filter((i) => this.#used[i] === 1);
    const others = old.filter((i) => this.#used[i] === 0).sort((a, b) => entries[b]![8] - entries[a]![8]);
    const keptOld = new Set([...used, ...others.slice(0, used.length + this.#added.length + KEPT_BEYOND_USED)]);
    const oldRows: Row[] = old
      .filter((i) => keptOld.has(i))
      .map((i) => {
        const entry = entries[i]!;
        const usedAt = this.#used[i] === 1 ? this.#started : entry[8];
        return {
          keys: withLearnt(keysOf[i]!, this.#learnt.get(i)),
          digest: entry[1] === null ? "" : hex(digests, i),
          json: JSON.stringify([...entry.slice(0, 8), usedAt]),
          usedAt,
        };
      });
    const rows = mergeSorted(
      oldRows,
      this.#added.sort((a, b) => compareKeys(a.keys[0]![0], b.keys[0]![0])),
    );
    const keyRows: { key: string; kind: KeyKind; position: number }[] = [];
    // An alias names one file's bytes; should two entries claim one, the newest (this run's) wins.
    const claimed = new Set<string>();
    const byRecency = rows.map((row, position) => ({ row, position }));
    byRecency.sort((a, b) => b.row.usedAt - a.row.usedAt);
    for (const { row, position } of byRecency)
      for (const [key, kind] of row.keys)
        if (!claimed.has(key)) {
          claimed.add(key);
          keyRows.push({ key, kind, position });
        }
    const keys = keyTable(keyRows);
    const bodyDigests = Buffer.alloc(rows.length * KEY_BYTES);
    rows.forEach((row, i) => {
      if (row.digest !== "") bodyDigests.write(row.digest, i * KEY_BYTES, "hex");
    });
    mkdirSync(this.dir, { recursive: true });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    const fd = openSync(temporary, "w");
    try {
      try {
        const hash = createHash("sha256");
        const append = (bytes: Uint8Array) => {
          hash.update(bytes);
          writeFileSync(fd, bytes);
        };
        writeFileSync(fd, `${" ".repeat(HEADER_BYTES - 1)}\n`);
        append(keys);
        append(bodyDigests);
        append(Buffer.from(`{"deps":${JSON.stringify(this.#deps)},"entries":[`));
        for (let at = 0; at < rows.length; at += WRITE_ROWS)
          append(
            Buffer.from(
              (at === 0 ? "" : ",") +
                rows
                  .slice(at, at + WRITE_ROWS)
                  .map((row) => row.json)
                  .join(","),
            ),
          );
        append(Buffer.from("]}"));
        const header = JSON.stringify({
          format: FORMAT,
          count: rows.length,
          keys: keys.length / ROW_BYTES,
          sha256: hash.digest("base64url"),
        });
        writeSync(fd, header.padEnd(HEADER_BYTES - 1), 0);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.#file);
    } finally {
      rmSync(temporary, { force: true });
    }
    this.bodies?.prune(new Set(rows.flatMap((row) => (row.digest === "" ? [] : [row.digest]))));
  }
}

/** Each stored entry's keys, its bytes' first, from the table. */
function storedKeys(table: Uint8Array, count: number): KeptKey[][] {
  const keysOf: KeptKey[][] = Array.from({ length: count }, () => []);
  for (const { key, kind, position } of new KnownKeys(table).rows()) {
    const kept: KeptKey = [latin1(key), kind];
    if (kind === KEY_KINDS.bytes) keysOf[position]!.unshift(kept);
    else keysOf[position]!.push(kept);
  }
  return keysOf;
}

/** An entry's keys with `learnt`, which replaces any alias of its kind: a file has one status, one blob id. */
function withLearnt(keys: KeptKey[], learnt: Alias | undefined): KeptKey[] {
  if (learnt === undefined) return keys;
  return [...keys.filter(([, kind]) => kind !== learnt.kind), [latin1(learnt.key), learnt.kind]];
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An entry as written: its keys (32 bytes as latin1 text, with their kinds), its body's digest (hex; empty for none), and the JSON of
 * its StoredEntry.
 */
interface Row {
  /** Its keys, its bytes' first. */
  keys: KeptKey[];
  digest: string;
  json: string;
  /** When its entry was last used: the StoredEntry's last member. */
  usedAt: number;
}

interface Stored {
  /** The keys and aliases, sorted, with their entries' positions (known-keys.ts). */
  table: Uint8Array;
  /** Entry i's body digest at i × 32 (zeros for none). */
  digests: Uint8Array;
  entries: StoredEntry[];
  deps: [VerdictReads, string][];
}

const EMPTY: Stored = { table: new Uint8Array(0), digests: new Uint8Array(0), entries: [], deps: [] };

/** The stored entries; none, with why, when the file is not to be trusted. */
function load(file: string): { stored: Stored; ignored?: string } {
  const ignored = (why: string) => ({ stored: EMPTY, ignored: why });
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_FILE_BYTES);
  } catch (error) {
    // None yet is the usual case, and says nothing; anything else in its place is worth a word.
    if (error instanceof NotACacheFile && error.message !== "no such file") return ignored(`it is ${error.message}`);
    return { stored: EMPTY };
  }
  try {
    const newline = bytes.indexOf(10);
    const header = JSON.parse(bytes.toString("utf8", 0, newline));
    if (header?.format !== FORMAT) return ignored(`its format is not ${FORMAT}`);
    const rest = bytes.subarray(newline + 1);
    if (newline < 0 || header.sha256 !== createHash("sha256").update(rest).digest("base64url"))
      return ignored("its content does not match its digest (truncated or altered)");
    const count = header.count as number;
    const keyBytes = (header.keys as number) * ROW_BYTES;
    const digestBytes = count * KEY_BYTES;
    const { deps, entries } = JSON.parse(rest.toString("utf8", keyBytes + digestBytes)) as Omit<
      Stored,
      "table" | "digests"
    >;
    if (
      !Array.isArray(deps) ||
      !deps.every(isDep) ||
      !Array.isArray(entries) ||
      entries.length !== count ||
      !entries.every((e) => isEntry(e, deps.length))
    ) {
      return ignored("it holds an entry of the wrong shape");
    }
    const table = rest.subarray(0, keyBytes);
    if (!new KnownKeys(table).isTableOf(count)) return ignored("it holds an entry of the wrong shape");
    return { stored: { table, digests: rest.subarray(keyBytes, keyBytes + digestBytes), entries, deps } };
  } catch {
    return ignored("it cannot be read (truncated or altered)");
  }
}

/** `rows` and `more`, each sorted by key, as one sorted list. */
function mergeSorted(rows: Row[], more: Row[]): Row[] {
  const out: Row[] = [];
  let j = 0;
  for (const row of rows) {
    while (j < more.length && more[j]!.keys[0]![0] < row.keys[0]![0]) out.push(more[j++]!);
    out.push(row);
  }
  return out.concat(more.slice(j));
}

function hex(table: Uint8Array, i: number): string {
  return Buffer.from(table.buffer, table.byteOffset + i * KEY_BYTES, KEY_BYTES).toString("hex");
}

function latin1(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");
}

function isDep(dep: unknown): dep is [VerdictReads, string] {
  return (
    Array.isArray(dep) &&
    dep.length === 2 &&
    typeof dep[0] === "object" &&
    dep[0] !== null &&
    typeof dep[1] === "string"
  );
}

function isEntry(e: unknown, deps: number): e is StoredEntry {
  return (
    Array.isArray(e) &&
    e.length === 9 &&
    (e[0] === null || typeof e[0] === "string") &&
    (e[1] === null || Number.isSafeInteger(e[1])) &&
    (e[2] === null || typeof e[2] === "number") &&
    typeof e[3] === "object" &&
    e[3] !== null &&
    isKeptPlaces(e[4]) &&
    (e[5] === null || typeof e[5] === "string") &&
    Number.isInteger(e[6]) &&
    e[6] >= 0 &&
    e[6] < deps &&
    Array.isArray(e[7]) &&
    e[7].every(
      (d: KeptDiagnostic) =>
        typeof d === "object" &&
        d !== null &&
        (SEVERITIES as readonly unknown[]).includes(d.severity) &&
        isRuleId(d.rule) &&
        typeof d.message === "string",
    ) &&
    typeof e[8] === "number"
  );
}

function isKeptPlaces(places: unknown): places is KeptPlaces {
  return (
    Array.isArray(places) &&
    places.length === 2 * PLACED_MEMBERS.length &&
    places.every((n) => Number.isSafeInteger(n) && n >= 0)
  );
}
