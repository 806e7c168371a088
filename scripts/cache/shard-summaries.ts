/**
 * Summaries of a content root's verdicts by shard, so that a warm run takes the results of
 * the files it knows without reading them a shard at a time, never entry by entry, and
 * keeps only what changed (docs/security.md, "The verification cache").
 *
 * A content root's manifest files, in their order, are cut into shards where a name's hash
 * says so (content-defined: adding or removing a file moves the cuts beside it only), about
 * FILES_PER_SHARD files each. A shard is named by the digest of the run's scope, how files
 * are known (git's index, or their status) and its files' names; its inputs' key adds what
 * the run knows of each file without reading it (its git blob id, or its status:
 * file-identity.ts), or that it knows it only by reading it. Its summary, the file
 * `summaries/<shard>-<key>`, holds for each file its entry: the key of its bytes, what it was
 * known by, what its verdict read and found, its body's digest, and the verdict's JSON, as
 * the cache file keeps them (verification-cache.ts). A shard whose summary of its inputs'
 * key is there is taken from it whole, but for the files read; one whose files changed
 * takes from its latest summary the files still known by the same identity, and the others
 * are known one by one, as before. An entry of a summary
 * is used only while what it read still finds what it found, its body held for a build.
 *
 * Each summary is one file, written whole by the store's one writer as soon as its shard is
 * checked; its first line holds the SHA-256 of the rest, and a file that does not match it,
 * or is of the wrong shape, is not used: its shard is known file by file. A saved run keeps
 * the summaries it used or wrote, and as many others as it used, the most recently written
 * first.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../store/atomic-write.ts";
import { MAX_CACHE_FILE_BYTES } from "../store/limits.ts";
import { readRegularFile } from "../store/regular-file.ts";
import { sweep } from "../store/sweep.ts";

const FORMAT = 1;
/**
 * Shards hold this many files on average: a changed shard's unchanged files come from its latest summary, so a
 * larger shard costs a larger summary rewritten, and a smaller one more files opened (at 64, 335 of them for 20,000
 * manifests cost more than their parsing).
 */
const FILES_PER_SHARD = 256;
/** A shard is cut here whatever the names say: a run of unlucky names never makes one shard of tens of thousands. */
const MAX_SHARD_FILES = 4096;
const SUMMARY_NAME = /^([0-9a-f]{64})-([0-9a-f]{64})$/;
/** An entry's key (SHA-256) in base64url. */
const KEY = /^[\w-]{43}$/;

/** Where each shard of `names` ends (exclusive), in order: the last is `names.length`. */
export function shardEnds(names: readonly string[]): Int32Array {
  const ends: number[] = [];
  let start = 0;
  names.forEach((name, i) => {
    if (i + 1 - start >= MAX_SHARD_FILES || fnv1a(name) % FILES_PER_SHARD === 0) {
      ends.push(i + 1);
      start = i + 1;
    }
  });
  if (start < names.length) ends.push(names.length);
  return Int32Array.from(ends);
}

/** FNV-1a over the name's UTF-16 code units: a cheap, stable hash, not a defence (a shard's key is a digest). */
function fnv1a(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** A shard's name (hex), from `prefix` (the scope, how files are known) and its files' names. */
export function shardName(prefix: string, names: readonly string[]): string {
  return createHash("sha256")
    .update(`${FORMAT}\0${prefix}\0${names.join("\0")}`)
    .digest("hex");
}

/**
 * What a summary's row and a shard's key hold for a file the run knows only by reading it (one git's index does not
 * vouch for, as it changed since): no identity is this, so such a row is never taken for a file, and the key says
 * which files were read.
 */
export const UNKNOWN_IDENTITY = "?";

/**
 * The key of a shard's inputs (hex): each file's identity, in order, UNKNOWN_IDENTITY for one known only by reading
 * it. A file changed but not committed is unknown run after run: its shard's other files still come from a summary.
 */
export function inputsKey(shard: string, identities: readonly (string | undefined)[]): string {
  return createHash("sha256")
    .update(`${shard}\0${identities.map((identity) => identity ?? UNKNOWN_IDENTITY).join("\0")}`)
    .digest("hex");
}

/**
 * A file's entry in a summary: the key of its bytes, what it was known by, what its verdict read and found (the JSON
 * of `[reads, found]`), its body's digest (hex; "" for none), the entry's flags and its JSON.
 */
export interface SummaryRow {
  /** In base64url, as the summary keeps it: a run that only reads it never decodes it. */
  key: string;
  identity: string;
  dep: string;
  digest: string;
  flags: number;
  json: string;
}

/**
 * A summary as read: what its entries read and found, each `[reads, found]` once, and its rows, each with the index
 * of its own there, and its entry parsed.
 */
export interface Summary {
  deps: unknown[];
  rows: (Omit<SummaryRow, "json" | "dep"> & { dep: number; entry: unknown })[];
}

/** The summaries in a cache folder: which there are, read and written by shard and key. */
export class ShardSummaries {
  readonly #dir: string;
  /** The keys of each shard's summaries there are. */
  readonly #present = new Map<string, string[]>();
  /** The summaries this run used or wrote: kept by `save`. */
  readonly #touched = new Set<string>();
  /** The bodies their entries name (hex), which a build's blob store keeps; none for a check's. */
  readonly bodies = new Set<string>();

  readonly withBodies: boolean;

  /** `unused`: none of those there is to be used (the cache was ignored); they are then replaced, or swept. */
  constructor(cacheDir: string, { withBodies, unused }: { withBodies: boolean; unused: boolean }) {
    this.#dir = join(cacheDir, "summaries");
    this.withBodies = withBodies;
    let names: string[] = [];
    try {
      if (!unused) names = readdirSync(this.#dir);
    } catch {
      // None yet: every shard is known file by file.
    }
    for (const name of names) {
      const parts = SUMMARY_NAME.exec(name);
      if (parts === null) continue;
      const keys = this.#present.get(parts[1]!);
      if (keys === undefined) this.#present.set(parts[1]!, [parts[2]!]);
      else keys.push(parts[2]!);
    }
  }

  has(shard: string, key: string): boolean {
    return this.#present.get(shard)?.includes(key) === true;
  }

  /** The key of the shard's most recently written summary, if it has one. */
  latest(shard: string): string | undefined {
    const keys = this.#present.get(shard) ?? [];
    return keys.length < 2
      ? keys[0]
      : newestFirst(
          this.#dir,
          keys.map((key) => `${shard}-${key}`),
        )[0]?.slice(65);
  }

  /** The summary of `shard` with inputs `key`, of `files` rows; undefined when it is not there or not to be trusted. */
  read(shard: string, key: string, files: number): Summary | undefined {
    const name = `${shard}-${key}`;
    let summary: unknown;
    try {
      const bytes = readRegularFile(join(this.#dir, name), MAX_CACHE_FILE_BYTES);
      const newline = bytes.indexOf(10);
      const header: unknown = JSON.parse(bytes.toString("utf8", 0, newline));
      const rest = bytes.subarray(newline + 1);
      if (!isHeader(header) || header.sha256 !== createHash("sha256").update(rest).digest("base64url"))
        return undefined;
      summary = JSON.parse(rest.toString("utf8"));
    } catch {
      // Gone, not a regular file, or not JSON: its shard is known file by file.
      return undefined;
    }
    if (!isSummaryJson(summary) || summary.rows.length !== files) return undefined;
    const rows: Summary["rows"] = [];
    for (const [key, identity, dep, digest, flags, entry] of summary.rows) {
      if (!KEY.test(key) || dep >= summary.deps.length) return undefined;
      rows.push({ key, identity, dep, digest, flags, entry });
    }
    this.#kept(name, rows);
    return { deps: summary.deps, rows };
  }

  /** Keeps the summary of `shard` with inputs `key`: its rows, in file order. */
  write(shard: string, key: string, rows: readonly SummaryRow[]): void {
    const name = `${shard}-${key}`;
    const deps = new Map<string, number>();
    const row = (r: SummaryRow) => {
      let dep = deps.get(r.dep);
      if (dep === undefined) {
        dep = deps.size;
        deps.set(r.dep, dep);
      }
      return `["${r.key}",${JSON.stringify(r.identity)},${dep},"${r.digest}",${r.flags},${r.json}]`;
    };
    const rowsJson = rows.map(row).join(",");
    const body = Buffer.from(`{"deps":[${[...deps.keys()].join(",")}],"rows":[${rowsJson}]}`);
    const header = JSON.stringify({ format: FORMAT, sha256: createHash("sha256").update(body).digest("base64url") });
    try {
      mkdirSync(this.#dir, { recursive: true });
      writeAtomically(join(this.#dir, name), (fd) => {
        writeFileSync(fd, `${header}\n`);
        writeFileSync(fd, body);
      });
      this.#kept(name, rows);
    } catch {
      // A summary not written costs a later run time, never a verdict: its shard is known file by file.
    }
  }

  #kept(name: string, rows: readonly { digest: string; flags: number }[]): void {
    this.#touched.add(name);
    if (this.withBodies) for (const { digest } of rows) if (digest !== "") this.bodies.add(digest);
  }

  /**
   * Removes the summaries this run neither used nor wrote, but as many as it did, the most recently written first;
   * and what killed runs left, once stale.
   */
  save(): void {
    const others: string[] = [];
    for (const [shard, keys] of this.#present)
      for (const key of keys) if (!this.#touched.has(`${shard}-${key}`)) others.push(`${shard}-${key}`);
    for (const name of newestFirst(this.#dir, others).slice(this.#touched.size))
      rmSync(join(this.#dir, name), { force: true });
    try {
      sweep(this.#dir);
    } catch {
      // No folder: nothing to sweep.
    }
  }
}

/** The files `names` of `dir`, the most recently written first. */
function newestFirst(dir: string, names: readonly string[]): string[] {
  const times = new Map(
    names.map((name) => [name, statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0]),
  );
  return [...names].sort((a, b) => times.get(b)! - times.get(a)!);
}

function isHeader(header: unknown): header is { format: number; sha256: string } {
  return (
    typeof header === "object" &&
    header !== null &&
    (header as { format?: unknown }).format === FORMAT &&
    typeof (header as { sha256?: unknown }).sha256 === "string"
  );
}

type SummaryJson = { deps: unknown[]; rows: [string, string, number, string, number, unknown][] };

function isSummaryJson(summary: unknown): summary is SummaryJson {
  if (typeof summary !== "object" || summary === null) return false;
  const { deps, rows } = summary as Partial<SummaryJson>;
  return (
    Array.isArray(deps) &&
    Array.isArray(rows) &&
    rows.every(
      (row) =>
        Array.isArray(row) &&
        row.length === 6 &&
        typeof row[0] === "string" &&
        typeof row[1] === "string" &&
        Number.isSafeInteger(row[2]) &&
        row[2] >= 0 &&
        typeof row[3] === "string" &&
        /^(?:[0-9a-f]{64})?$/.test(row[3]) &&
        Number.isSafeInteger(row[4]),
    )
  );
}
