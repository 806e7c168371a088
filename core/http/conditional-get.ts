/**
 * One cached GET (RFC 9111 as a private cache; RFC 9110 §13.1.2): an entry the caller
 * judges fresh is used without a request; otherwise the request carries the caller's
 * validator in `If-None-Match`, and a 304 refreshes the entry (its time, and the max-age
 * and ETag the 304 gives). Whether an entry is fresh is the caller's to say: a manifest is
 * never fresh past its `expiresAt` (contract §1.6), a status document by its `nextCheck`
 * and `revocationCursor` (EXT-OPT O2.1). The body is read up to a limit, so an endless one
 * cannot exhaust memory. Nothing is stored until the caller, having checked the body,
 * calls `save`: a response it refuses is never cached.
 */
import { decodeUtf8 } from "../base64url.ts";
import {
  discard,
  failure,
  getFollowing,
  type Followed,
  type RedirectPolicy,
  type Transport,
} from "./fetch-following.ts";
import { cacheControlOf, type CachedEntry, type HttpCache } from "./http-cache.ts";

export interface Freshness {
  /** Use the entry without a request. */
  fresh: boolean;
  /** The `If-None-Match` value to revalidate it with; none: request it unconditionally. */
  validator: string | undefined;
}

export interface CachedGet extends RedirectPolicy {
  /** The request URL. */
  url: string;
  /**
   * Where the response is kept in the cache. Default: the request URL without its fragment, which no request sends:
   * keys with a fragment are the client's own (status-memory.ts), and a URL a manifest names must not write there.
   */
  cacheKey?: string;
  accept: string;
  /** The most body bytes used; a longer body is returned as `raw`, cut at one byte more. */
  maxBytes: number;
  /** The evaluation clock, milliseconds since 1970. */
  now: number;
  cache: HttpCache | undefined;
  transport: Transport;
  judge(entry: CachedEntry): Freshness;
}

/** `redirectedTo`, on an answer that came by a request: the first answer's Location (fetch-following.ts). */
export type Got =
  | {
      kind: "entry";
      entry: CachedEntry;
      from: "cache" | "revalidated" | "network";
      save(): Promise<void>;
      redirectedTo?: string;
    }
  /** A 200 whose body cannot be kept as text: not UTF-8, or longer than maxBytes. */
  | { kind: "raw"; url: string; bytes: Uint8Array; contentType: string | null; redirectedTo?: string }
  /** Any other answer than 200, or than a 304 to a revalidation. */
  | { kind: "status"; url: string; status: number; redirectedTo?: string }
  | Extract<Followed, { kind: "insecure" | "unreachable" }>;

export async function cachedGet(request: CachedGet): Promise<Got> {
  const { url, cache, now } = request;
  const cacheKey = request.cacheKey ?? url.split("#")[0]!;
  const cached = await cache?.get(cacheKey);
  const freshness = cached === undefined ? undefined : request.judge(cached);
  if (cached !== undefined && freshness?.fresh === true)
    return { kind: "entry", entry: cached, from: "cache", save: async () => {} };
  const validator = freshness?.validator;
  const followed = await getFollowing(
    url,
    { accept: request.accept, ...(validator !== undefined && { "if-none-match": validator }) },
    request.transport,
    request,
  );
  if (followed.kind !== "response") return followed;
  const { response } = followed;
  const redirected = followed.redirectedTo === undefined ? {} : { redirectedTo: followed.redirectedTo };
  const control = cacheControlOf(response.headers.get("cache-control"));
  const save = (entry: CachedEntry) => async () => {
    if (cache !== undefined && !control.noStore) await cache.set(cacheKey, entry);
  };
  if (response.status === 304 && cached !== undefined && validator !== undefined) {
    await discard(response);
    const etag = response.headers.get("etag") ?? cached.etag;
    const entry: CachedEntry = {
      ...cached,
      url: followed.url,
      storedAt: now,
      maxAge: response.headers.has("cache-control") ? control.maxAge : cached.maxAge,
      ...(etag !== undefined && { etag }),
    };
    return { kind: "entry", entry, from: "revalidated", save: save(entry), ...redirected };
  }
  if (response.status !== 200) {
    await discard(response);
    return { kind: "status", url: followed.url, status: response.status, ...redirected };
  }
  let bytes: Uint8Array;
  try {
    bytes = await bodyAtMost(response, request.maxBytes);
  } catch (error) {
    return { kind: "unreachable", reason: `${followed.url}: the body was cut off: ${failure(error)}` };
  }
  const contentType = response.headers.get("content-type");
  const body = bytes.length <= request.maxBytes ? decodeUtf8(bytes) : undefined;
  if (body === undefined) return { kind: "raw", url: followed.url, bytes, contentType, ...redirected };
  const etag = response.headers.get("etag");
  const entry: CachedEntry = {
    url: followed.url,
    body,
    storedAt: now,
    maxAge: control.maxAge,
    ...(etag !== null && { etag }),
    ...(contentType !== null && { contentType }),
  };
  return { kind: "entry", entry, from: "network", save: save(entry), ...redirected };
}

/** The body's first `max + 1` bytes at most: enough to tell it is too long, without reading it all. */
export async function bodyAtMost(response: Response, max: number): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length <= max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  if (length > max) await reader.cancel();
  const bytes = new Uint8Array(Math.min(length, max + 1));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
