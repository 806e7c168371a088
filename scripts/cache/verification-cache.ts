/**
 * The verification cache that `check` and `build` share (README "The verification cache"):
 * for each manifest file, what its check concluded, keyed by the SHA-256 of the run's scope
 * (the tool's identity and every setting a verdict depends on), the file's name in its
 * content root, and the file's bytes; with what else the verdict read (verdict-reads.ts)
 * and what it found there. Expiry is never kept: each run judges it again from the times
 * kept. What a run checks across files (one file per UMID, `_routes.json`) is not cached.
 *
 * One file, written whole under a temporary name and renamed over the old one, so that a
 * reader finds the old file or the new, never a part. Its first line holds the SHA-256 of
 * the rest: a file that does not match it, or does not parse, is ignored as if absent and
 * rebuilt, and an entry of the wrong shape is dropped. What entries read and found is kept
 * once for all that share it (most share one pin). Entries a run did not use (another
 * branch's, or production's beside a preview's) are kept, the most recently used first,
 * while they number no more than those it used plus 1,000.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Settings } from "../config.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import { BodyStore } from "./body-store.ts";
import { KnownKeys } from "./known-keys.ts";
import { toolIdentity } from "./tool-identity.ts";
import { found, type ReadContext, type VerdictReads } from "./verdict-reads.ts";

const FILE = "verification.json";
const FORMAT = 1;
const KEPT_BEYOND_USED = 1000;

/** A diagnostic as kept: its file is the one the entry is for, wherever that is now displayed. */
export type KeptDiagnostic = Omit<Diagnostic, "file">;

export interface CacheEntry {
  /** SHA-256 (base64url) of the scope, the file's name and its bytes. */
  key: string;
  umid: string | null;
  /** For a manifest with no error of its own: its body's SHA-256 (lowercase hex, as its ETag carries it) and size. */
  body: StoredBody | null;
  /** `issuedAt` in milliseconds since the epoch, when it names an instant. */
  issuedAt: number | null;
  /** The values freshness reads (core/validate/freshness.ts), as written. */
  times: { issuedAt?: unknown; expiresAt?: unknown };
  legacy: string | null;
  reads: VerdictReads;
  found: string;
  /** What the check found but freshness. */
  diagnostics: KeptDiagnostic[];
  /** When a run last used it (milliseconds since the epoch). */
  used: number;
}

/** A body in the cache's body store. */
export interface StoredBody {
  digest: string;
  bytes: number;
}

/** The scope of a run's keys: the tool's identity and the settings a verdict depends on. */
export function cacheScope(settings: Settings, tool = toolIdentity()): string {
  const { standardsUrl, contextUrl, resolverUrl, limits } = settings;
  return createHash("sha256").update(JSON.stringify({ format: FORMAT, tool, standardsUrl, contextUrl, resolverUrl, limits })).digest("base64url");
}

export function cacheKey(scope: string, name: string, bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(`${scope}\0${name}\0`).update(bytes).digest();
}

/** The entries a run may use, by their position in the table of their keys. */
export interface UsableEntries {
  known: KnownKeys;
  entryAt(position: number): CacheEntry;
}

export class VerificationCache {
  readonly #file: string;
  readonly #entries: CacheEntry[];
  readonly #added: CacheEntry[] = [];
  readonly #started = Date.now();
  /** Why the cache file on disk was ignored, if it was. */
  readonly ignored?: string;
  /** The bodies, when a build uses the cache. */
  readonly bodies?: BodyStore;

  constructor(readonly dir: string, withBodies: boolean) {
    this.#file = join(dir, FILE);
    const loaded = load(this.#file);
    this.#entries = loaded.entries;
    if (loaded.ignored !== undefined) this.ignored = loaded.ignored;
    if (withBodies) this.bodies = new BodyStore(join(dir, "bodies"));
  }

  /**
   * The entries whose reads still find what they found in `context`; for a build, only
   * those whose body is in the store (the others are checked again, which writes it).
   */
  usable(context: ReadContext): UsableEntries {
    const memo = new Map<string, string>();
    const stillFound = (entry: CacheEntry) => {
      const reads = JSON.stringify(entry.reads);
      let now = memo.get(reads);
      if (now === undefined) memo.set(reads, (now = found(entry.reads, context)));
      return now === entry.found;
    };
    const usable = this.#entries.filter((entry) => stillFound(entry) && (this.bodies === undefined || entry.body === null || this.bodies.held.has(entry.body.digest)));
    const { known, origin } = KnownKeys.of(usable.map((entry) => Buffer.from(entry.key, "base64url")));
    return {
      known,
      entryAt: (position) => {
        const entry = usable[origin[position]!]!;
        entry.used = this.#started;
        return entry;
      },
    };
  }

  add(entry: Omit<CacheEntry, "used">): void {
    this.#added.push({ ...entry, used: this.#started });
  }

  /** Writes the entries used and added, and the most recent others; removes bodies no entry kept names. Unchanged: nothing. */
  save(): void {
    if (this.#added.length === 0) return;
    const added = new Set(this.#added.map((entry) => entry.key));
    const old = this.#entries.filter((entry) => !added.has(entry.key));
    const used = old.filter((entry) => entry.used === this.#started);
    const others = old.filter((entry) => entry.used !== this.#started).sort((a, b) => b.used - a.used);
    const kept = [...used, ...this.#added].concat(others.slice(0, used.length + this.#added.length + KEPT_BEYOND_USED));
    const deps = new Map<string, number>();
    const entries = kept.map(({ reads, found, ...entry }) => {
      const dep = JSON.stringify([reads, found]);
      if (!deps.has(dep)) deps.set(dep, deps.size);
      return { ...entry, dep: deps.get(dep) };
    });
    const body = `{"deps":[${[...deps.keys()].join(",")}],"entries":${JSON.stringify(entries)}}`;
    mkdirSync(this.dir, { recursive: true });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, sha256: digest(body) })}\n${body}`);
      renameSync(temporary, this.#file);
    } finally {
      rmSync(temporary, { force: true });
    }
    this.bodies?.prune(new Set(kept.flatMap((entry) => (entry.body === null ? [] : [entry.body.digest]))));
  }
}

function load(file: string): { entries: CacheEntry[]; ignored?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { entries: [] };
  }
  const newline = text.indexOf("\n");
  try {
    const header = JSON.parse(text.slice(0, newline));
    const body = text.slice(newline + 1);
    if (header?.format !== FORMAT) return { entries: [], ignored: `its format is not ${FORMAT}` };
    if (newline < 0 || header.sha256 !== digest(body)) return { entries: [], ignored: "its content does not match its digest (truncated or altered)" };
    const { deps, entries } = JSON.parse(body) as { deps: unknown; entries: unknown };
    if (!Array.isArray(deps) || !Array.isArray(entries)) return { entries: [], ignored: "it holds no list of entries" };
    const withDeps = entries.map((entry) => {
      const [reads, found] = (Array.isArray(deps[entry?.dep]) ? deps[entry.dep] : []) as [unknown, unknown];
      return { ...entry, reads, found };
    });
    return { entries: withDeps.filter(isEntry) };
  } catch {
    return { entries: [], ignored: "it is not JSON (truncated or altered)" };
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

function isEntry(value: unknown): value is CacheEntry {
  const e = value as CacheEntry;
  return (
    typeof e === "object" &&
    e !== null &&
    typeof e.key === "string" &&
    /^[A-Za-z0-9_-]{43}$/.test(e.key) &&
    (e.umid === null || typeof e.umid === "string") &&
    (e.body === null || (typeof e.body === "object" && typeof e.body.digest === "string" && /^[0-9a-f]{64}$/.test(e.body.digest) && Number.isSafeInteger(e.body.bytes))) &&
    (e.issuedAt === null || typeof e.issuedAt === "number") &&
    typeof e.times === "object" &&
    e.times !== null &&
    (e.legacy === null || typeof e.legacy === "string") &&
    typeof e.reads === "object" &&
    e.reads !== null &&
    typeof e.found === "string" &&
    Array.isArray(e.diagnostics) &&
    e.diagnostics.every((d) => typeof d === "object" && d !== null && (d.severity === "error" || d.severity === "warning") && typeof d.rule === "string" && typeof d.message === "string") &&
    typeof e.used === "number"
  );
}
