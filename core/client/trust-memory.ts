/**
 * The client's memory of what a relying party's safety rests on (issue 37): the revocations
 * and suspensions it saw (status-memory.ts), the largest checkpoint it saw of each log
 * (checkpoint-memory.ts), and the revocations each log proved (latest-logged.ts). It is a
 * store of its own, apart from the HTTP cache: a cache evicts by the bytes of the bodies it
 * keeps, so whoever gets a client to fetch enough elsewhere would flush it, and a revocation
 * would be forgotten, a rolled-back log accepted again.
 *
 * It is bounded by a count, not by bytes: at most `umids` statuses (revoked or suspended,
 * each under the URL a UMID is resolved at, or a log's revocation under the log's key and
 * the UMID) and `logs` checkpoints. Nothing in it is evicted by traffic, and a revocation
 * or a checkpoint is never forgotten: when the bound is reached, a new revocation takes the
 * place of the oldest suspension (a suspension is temporary, a revocation permanent), and
 * anything else new is not kept, which `keep` answers with false for the caller to report
 * (`Resolution.memoryFailure`). So a party that makes the client see many UMIDs, revoked
 * or suspended, can fill the memory and make it refuse what comes next, loudly, but never
 * make it forget what it holds. An "active" is not kept: it is what a UMID never seen is.
 */
import { isJsonObject } from "../json/strict-json.ts";
import { FirstFailure } from "../http/first-failure.ts";

/** One thing remembered; `url` is where it was seen, `storedAt` when (the evaluation clock, milliseconds). */
export type Remembered =
  | { kind: "revoked" | "suspended"; cursor?: string; url: string; storedAt: number }
  /** The signed note, as it came. */
  | { kind: "checkpoint"; note: string; url: string; storedAt: number };

/**
 * Where the memory is kept: `trustMemory()` in memory, the CLI's in files (scripts/client/file-trust-memory.ts), or
 * a store of the caller's, which must keep to the same rules (`roomFor`). A method that throws (a full disk) is
 * reported once in `Resolution.memoryFailure`, and the resolution goes on without what failed.
 */
export interface TrustMemory {
  recall(key: string): Promise<Remembered | undefined>;
  /**
   * Keeps `record` under `key`, in place of what was there, unless that was a revocation, which stays (`stays`); false
   * when it could not (`roomFor` said "full").
   */
  keep(key: string, record: Remembered): Promise<boolean>;
  /** Forgets a suspension under `key` (it ended); a revocation or a checkpoint is never forgotten. */
  forget(key: string): Promise<void>;
}

export interface MemoryBounds {
  /** Statuses kept, revoked or suspended: one per UMID and resolver (or log). */
  umids: number;
  /** Checkpoints kept: one per log key. */
  logs: number;
}

export const DEFAULT_MEMORY_BOUNDS: Readonly<MemoryBounds> = { umids: 100_000, logs: 1_000 };

/** What is held, counted. */
export interface MemoryCounts {
  /** Statuses, revoked or suspended. */
  umids: number;
  suspensions: number;
  logs: number;
}

/**
 * What keeping a new key of `kind` takes, given what is held: nothing ("room"), the oldest suspension's place
 * ("displace"), or more than may be given ("full"). A key already held is replaced in place, and takes nothing.
 */
export function roomFor(
  kind: Remembered["kind"],
  held: MemoryCounts,
  bounds: MemoryBounds,
): "room" | "displace" | "full" {
  if (kind === "checkpoint") return held.logs < bounds.logs ? "room" : "full";
  if (held.umids < bounds.umids) return "room";
  return kind === "revoked" && held.suspensions > 0 ? "displace" : "full";
}

/** Whether `held`, under a key, stays when `record` is kept under it: a revocation stays, whatever comes after. */
export function stays(held: Remembered | undefined, record: Remembered): boolean {
  return held?.kind === "revoked" && record.kind !== "revoked";
}

/** The key of the suspension stored first (the evaluation clock), among `held`; undefined when none. */
export function oldestSuspension(held: Iterable<[string, Remembered]>): string | undefined {
  let oldest: [string, Remembered] | undefined;
  for (const entry of held)
    if (entry[1].kind === "suspended" && (oldest === undefined || entry[1].storedAt < oldest[1].storedAt))
      oldest = entry;
  return oldest?.[0];
}

/** The record in `value` (as read back from storage), or undefined when it is not one. */
export function rememberedOf(value: unknown): Remembered | undefined {
  if (!isJsonObject(value)) return undefined;
  const { kind, cursor, note, url, storedAt } = value;
  if (typeof url !== "string" || !Number.isFinite(storedAt)) return undefined;
  if (kind === "checkpoint") return typeof note === "string" ? (value as unknown as Remembered) : undefined;
  if (kind !== "revoked" && kind !== "suspended") return undefined;
  return cursor === undefined || typeof cursor === "string" ? (value as unknown as Remembered) : undefined;
}

/** A memory in this process, bounded by `bounds`. */
export function trustMemory(bounds: MemoryBounds = DEFAULT_MEMORY_BOUNDS): TrustMemory {
  const records = new Map<string, Remembered>();
  // Counted as records come and go, not by a walk over them: a keep that finds room costs the same with 100,000 held
  // as with none (only a displacement walks them, for the oldest suspension).
  const held: MemoryCounts = { umids: 0, suspensions: 0, logs: 0 };
  const count = (record: Remembered | undefined, by: 1 | -1) => {
    if (record === undefined) return;
    if (record.kind === "checkpoint") held.logs += by;
    else held.umids += by;
    if (record.kind === "suspended") held.suspensions += by;
  };
  const remove = (key: string) => {
    count(records.get(key), -1);
    records.delete(key);
  };
  return {
    recall: async (key) => records.get(key),
    async keep(key, record) {
      const was = records.get(key);
      if (stays(was, record)) return true;
      if (was === undefined) {
        const room = roomFor(record.kind, held, bounds);
        if (room === "full") return false;
        if (room === "displace") remove(oldestSuspension(records)!);
      }
      remove(key);
      records.set(key, record);
      count(record, 1);
      return true;
    },
    async forget(key) {
      if (records.get(key)?.kind === "suspended") remove(key);
    },
  };
}

/** A memory whose failures are caught and kept, the first in words (`failure`), as the resolution reports it. */
export interface GuardedMemory extends TrustMemory {
  readonly failure: string | undefined;
}

/**
 * `memory` with its failures caught: a recall that fails is nothing recalled, a keep that fails or finds the memory
 * full is nothing kept, and the first is kept to report.
 */
export function guardedMemory(memory: TrustMemory): GuardedMemory {
  const failures = new FirstFailure();
  const notSaved = "the memory was not saved";
  return {
    get failure() {
      return failures.message;
    },
    recall: (key) => failures.guard("the memory could not be read", undefined, () => memory.recall(key)),
    keep: (key, record) =>
      failures.guard(notSaved, false, async () => {
        if (await memory.keep(key, record)) return true;
        failures.note(
          `the memory is full (its bound of statuses or logs reached, and nothing in it may be forgotten), ` +
            `so this is not remembered: ${key}`,
        );
        return false;
      }),
    forget: (key) => failures.guard(notSaved, undefined, () => memory.forget(key)),
  };
}
