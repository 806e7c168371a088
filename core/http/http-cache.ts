/**
 * The client's HTTP cache (RFC 9111, as a private cache): responses kept by request URL
 * with their `ETag` and `Cache-Control: max-age`, fresh without a request for max-age
 * seconds from when they were stored, then revalidated with `If-None-Match` (RFC 9110
 * §13.1.2), a 304 refreshing them. The store is an interface, so a browser keeps entries
 * in memory (`memoryCache`) and the CLI in files (scripts/client/file-cache.ts). Times are
 * milliseconds by the evaluation clock (the context's `now` when given), not the wall
 * clock, so a run with `--now` is reproducible.
 */
import { LruCache } from "../lru-cache.ts";
import { FirstFailure } from "./first-failure.ts";
import { isJsonObject } from "../json/strict-json.ts";

export interface CachedEntry {
  /** The URL the body finally came from, after any redirects. */
  url: string;
  /** The response body, UTF-8 text. */
  body: string;
  etag?: string;
  contentType?: string;
  /** When it was stored or last revalidated: milliseconds since 1970-01-01T00:00:00Z. */
  storedAt: number;
  /** Seconds it stays fresh from `storedAt` (Cache-Control max-age; 0 without one). */
  maxAge: number;
}

/**
 * Where cached responses are kept, by key (the request URL; what a client saw of a status
 * is kept under the URL it resolved the UMID at, with a fragment: status-memory.ts). Either method may throw (a
 * full disk, a folder that cannot be written): `resolve` then goes on without the cache.
 */
export interface HttpCache {
  get(key: string): Promise<CachedEntry | undefined>;
  set(key: string, entry: CachedEntry): Promise<void>;
}

/** A cache whose failures cost time, never a verdict: `failure` says the first, in words. */
export interface GuardedCache extends HttpCache {
  readonly failure: string | undefined;
}

/**
 * `cache` with its failures caught: a read that fails is a miss, a write that fails is skipped, and the first is kept
 * to report once.
 */
export function guardedCache(cache: HttpCache): GuardedCache {
  const failures = new FirstFailure();
  return {
    get failure() {
      return failures.message;
    },
    get: (key) => failures.guard("the cache could not be read", undefined, () => cache.get(key)),
    set: (key, entry) => failures.guard("the cache was not saved", undefined, () => cache.set(key, entry)),
  };
}

/** The entry in `value` (as read back from storage), or undefined when it is not one. */
export function cachedEntryOf(value: unknown): CachedEntry | undefined {
  if (!isJsonObject(value)) return undefined;
  const { url, body, etag, contentType, storedAt, maxAge } = value;
  const optionalText = (v: unknown) => v === undefined || typeof v === "string";
  if (typeof url !== "string" || typeof body !== "string" || !optionalText(etag) || !optionalText(contentType))
    return undefined;
  if (!Number.isFinite(storedAt) || !Number.isFinite(maxAge) || (maxAge as number) < 0) return undefined;
  return value as unknown as CachedEntry;
}

/** Whether `entry` was stored less than `seconds` ago at `now` (and not after it: a clock set back makes it stale). */
export function storedWithin(entry: CachedEntry, seconds: number, now: number): boolean {
  const age = now - entry.storedAt;
  return age >= 0 && age < seconds * 1000;
}

/** What a response's Cache-Control lets a private cache do (RFC 9111 §5.2.2). */
export function cacheControlOf(header: string | null): { maxAge: number; noStore: boolean } {
  const directives = (header ?? "")
    .toLowerCase()
    .split(",")
    .map((d) => d.trim());
  const maxAge = directives.map((d) => /^max-age="?(\d+)"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  // no-cache: store, but revalidate before every use.
  const noCache = directives.includes("no-cache");
  return { maxAge: noCache || maxAge === undefined ? 0 : Number(maxAge), noStore: directives.includes("no-store") };
}

/** A cache in memory, least recently used entries evicted beyond `maxBytes` of bodies. */
export function memoryCache(maxBytes = 16 * 1024 * 1024): HttpCache {
  const entries = new LruCache<CachedEntry>(maxBytes);
  return {
    get: async (key) => entries.get(key),
    set: async (key, entry) => entries.set(key, entry, entry.body.length),
  };
}
