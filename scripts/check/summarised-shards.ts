/**
 * A content root's check by shards (scripts/cache/shard-summaries.ts): which files a run
 * takes from their shard's summary, and the summaries it writes for the shards it knew
 * only in part, each as soon as its last file is taken, so that a run holds the rows of one
 * shard at a time. Results are taken in file order, and so are shards. A shard whose inputs'
 * summary is there is read when its first file is taken; a shard whose files changed reads
 * its latest summary at once, to know which files it need not read.
 */
import type { Alias, CachedVerdict, UsableEntries } from "../cache/verification-cache.ts";
import {
  inputsKey,
  shardEnds,
  shardName,
  type ShardSummaries,
  type Summary,
  type SummaryRow,
  UNKNOWN_IDENTITY,
} from "../cache/shard-summaries.ts";
import type { IdentitySource } from "../cache/file-identity.ts";
import type { CheckedManifest } from "./checked-manifest.ts";

/** What a summarised shard needs of the cache as the check uses it (manifest-pool.ts's CacheUse). */
export interface ShardCache {
  scope: string;
  source: IdentitySource;
  usable: UsableEntries;
  summaries: ShardSummaries;
  identityOf(name: string): string | undefined;
  aliasOf(name: string, identity: string): Uint8Array;
}

interface ShardPlan {
  name: string;
  /** Its inputs' key. */
  key: string;
  /** Whether the summary of that key is there, to be read when the shard's first file is taken. */
  whole: boolean;
}

/** A file known from a summary: its verdict, and where it is there, for a summary made in its place. */
interface Known {
  verdict: CachedVerdict;
  summary: Summary;
  row: number;
}

/** The summary a run makes of a shard, as its files are taken: what its key was made of, and its rows. */
interface Making {
  identities: (string | undefined)[];
  rows: SummaryRow[];
}

export class SummarisedShards {
  /** Where each shard ends (exclusive), in file order. */
  readonly ends: Int32Array;
  readonly #plans: ShardPlan[] = [];
  /**
   * Whether each file is known from a summary (1), unless a whole shard's turns out unusable when read; never one the
   * run knows only by reading it.
   */
  readonly #known: Uint8Array;
  /** Files known from the summaries of shards whose files changed, read at once. */
  readonly #partly = new Map<number, Known>();
  /** The shard of the file taken last, the files known from its summary, and the summary made of it. */
  #shard = -1;
  #taken = new Map<number, Known>();
  #making: Making | undefined;

  constructor(
    readonly names: readonly string[],
    readonly cache: ShardCache,
  ) {
    this.ends = shardEnds(names);
    this.#known = new Uint8Array(names.length);
    const how = cache.source === "stat" ? "stat" : `git-${cache.source.git}`;
    this.ends.forEach((end, s) => {
      const start = this.#start(s);
      const shard = names.slice(start, end);
      const name = shardName(`${cache.scope}\0${how}`, shard);
      const identities = shard.map((file) => cache.identityOf(file));
      const key = inputsKey(name, identities);
      const whole = cache.summaries.has(name, key);
      this.#plans.push({ name, key, whole });
      if (whole)
        identities.forEach((identity, j) => {
          if (identity !== undefined) this.#known[start + j] = 1;
        });
      else this.#readLatest(name, start, identities);
    });
  }

  /** Whether file `i` is known from a summary: `verdictOf` gives its verdict (undefined: the summary was unusable). */
  isKnown(i: number): boolean {
    return this.#known[i] === 1;
  }

  /** The verdict of file `i`, known from a summary; undefined when that summary turned out unusable. */
  verdictOf(i: number): CachedVerdict | undefined {
    this.#take(i);
    const known = this.#taken.get(i) ?? this.#partly.get(i);
    this.#partly.delete(i);
    if (known !== undefined && this.#making !== undefined) {
      const { entry, ...row } = known.summary.rows[known.row]!;
      const dep = JSON.stringify(known.summary.deps[row.dep]);
      this.#keep({ ...row, dep, json: JSON.stringify(entry) });
    }
    return known?.verdict;
  }

  /** File `i` was known by the cache entry at `position`; `alias`: of the bytes read, when it was read. */
  recalled(i: number, position: number, alias: Alias | undefined): void {
    this.#take(i);
    const making = this.#making;
    if (making === undefined) return;
    const identity = making.identities[i - this.#start(this.#shard)];
    if (identity === undefined) this.#keep({ ...this.cache.usable.rowAt(position), identity: UNKNOWN_IDENTITY });
    else if (alias !== undefined && !Buffer.from(alias.key).equals(this.cache.aliasOf(this.names[i]!, identity)))
      this.#making = undefined;
    else this.#keep({ ...this.cache.usable.rowAt(position), identity });
  }

  /** File `i` was checked. */
  checked(i: number, manifest: CheckedManifest): void {
    this.#take(i);
    const making = this.#making;
    if (making === undefined) return;
    const identity = making.identities[i - this.#start(this.#shard)];
    const entry = manifest.cacheEntry;
    // Its summary says what the file was known by: the bytes checked must be those, not an edit made meanwhile. A
    // file known only by reading it is read again by every run, whatever its row says.
    if (
      entry === null ||
      (identity !== undefined &&
        (entry.alias === undefined ||
          !Buffer.from(entry.alias.key).equals(this.cache.aliasOf(this.names[i]!, identity))))
    )
      this.#making = undefined;
    else {
      const { json, reads, digest, flags } = entry.verdict;
      this.#keep({
        key: Buffer.from(entry.key).toString("base64url"),
        identity: identity ?? UNKNOWN_IDENTITY,
        dep: reads,
        digest,
        flags,
        json,
      });
    }
  }

  /** Once every file is taken: writes the last shard's summary. */
  finish(): void {
    this.#take(this.names.length);
  }

  /** Reads the latest summary of a shard whose files changed: the files still known by its identities need no read. */
  #readLatest(name: string, start: number, identities: readonly (string | undefined)[]): void {
    const latest = this.cache.summaries.latest(name);
    const summary = latest === undefined ? undefined : this.cache.summaries.read(name, latest, identities.length);
    summary?.rows.forEach((row, j) => {
      if (row.identity !== identities[j]) return;
      const known = this.#fromSummary(summary, j);
      if (known === undefined) return;
      this.#partly.set(start + j, known);
      this.#known[start + j] = 1;
    });
  }

  #fromSummary(summary: Summary, row: number): Known | undefined {
    const verdict = this.cache.usable.fromSummary(summary, row);
    return verdict && { verdict, summary, row };
  }

  /** Takes the shards before file `i`'s, writing the summaries made of them, then begins `i`'s. */
  #take(i: number): void {
    while (this.#shard < 0 || (this.#shard < this.ends.length && i >= this.ends[this.#shard]!)) {
      const making = this.#making;
      if (making !== undefined && making.rows.length === making.identities.length) {
        const { name, key } = this.#plans[this.#shard]!;
        this.cache.summaries.write(name, key!, making.rows);
      }
      this.#shard++;
      this.#taken = new Map();
      this.#making = undefined;
      if (this.#shard < this.ends.length) this.#begin(this.#shard);
    }
  }

  /** Begins shard `s`: reads its summary if it is known whole, and plans the summary to make of it if one is to be. */
  #begin(s: number): void {
    const { name, key, whole } = this.#plans[s]!;
    const start = this.#start(s);
    const files = this.ends[s]! - start;
    const summary = whole ? this.cache.summaries.read(name, key, files) : undefined;
    let knowable = 0;
    if (summary !== undefined)
      for (let j = 0; j < files; j++) {
        if (this.#known[start + j] === 0) continue;
        knowable++;
        const known = this.#fromSummary(summary, j);
        if (known !== undefined) this.#taken.set(start + j, known);
      }
    // The summary knew every file it may know: it stands as it is.
    if (summary !== undefined && this.#taken.size === knowable) return;
    // Asked again, not kept from the start (a million statuses as text): a file changed meanwhile makes no summary.
    const identities = this.names.slice(start, this.ends[s]).map((file) => this.cache.identityOf(file));
    // A summary of files all read (new, or just modified: their status does not vouch yet) would know none.
    if (inputsKey(name, identities) === key && identities.some((identity) => identity !== undefined))
      this.#making = { identities, rows: [] };
  }

  #keep(row: SummaryRow): void {
    this.#making?.rows.push(row);
  }

  #start(s: number): number {
    return s === 0 ? 0 : this.ends[s - 1]!;
  }
}
