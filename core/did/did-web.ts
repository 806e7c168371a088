/**
 * Resolving a did:web keyRef over the network (W3C CCG did:web §3.2): the DID document
 * fetched with the client's own GET (core/client/), so every rule the client holds a
 * resolver to holds here too: https: only (loopback http:), redirects followed by hand,
 * and here only within the DID's origin (the domain is what the DID trusts), a timeout,
 * a body cap, and no document on a local or private address for a manifest a remote
 * resolver served. Documents are kept in an HttpCache by their ETag and Cache-Control
 * max-age, like any response; requests for one URL made while it is being fetched share
 * that fetch, so a thousand manifests under one key cost one request.
 */
import { cachedGet, type Got } from "../http/conditional-get.ts";
import type { Transport } from "../http/fetch-following.ts";
import { storedWithin, type CachedEntry, type HttpCache } from "../http/http-cache.ts";
import { pointsInward } from "../secure-url.ts";
import { DID_DOCUMENT_MAX_BYTES, keyInDidDocumentText } from "./document-key.ts";
import { didWebDocumentUrl } from "./did-web-url.ts";
import type { KeyRefFault } from "./key-ref-fault.ts";

/** What a DID document is asked as; by it, the lookup page tells a DID document's request from a resolver's. */
export const DID_DOCUMENT_TYPES = "application/did+json, application/did+ld+json, application/json";
const MAX_DOCUMENT_AGE_S = 86_400;

export interface DidWebFetch {
  transport: Transport;
  cache: HttpCache | undefined;
  /** The evaluation clock, milliseconds since 1970 (cache freshness). */
  now: number;
  /**
   * The base URL of the resolver that served the manifest naming the DID, when one did: a did:web on a local or
   * private address (core/secure-url.ts, `did:web:localhost…`) is not fetched unless that resolver is on one too.
   */
  from?: string;
}

export type RemoteKey =
  | { publicKey: Uint8Array; documentUrl: string }
  | { fault: KeyRefFault; reason: string; documentUrl?: string };

/**
 * Fetches in flight, by the cache they fill (or the fetch that makes them, without one), then by clock and URL:
 * callers share a request only when they would judge its answer alike.
 */
const inFlight = new WeakMap<object, Map<string, Promise<Got>>>();

/**
 * DID documents are kept apart from every other response, under their URL and this suffix: a resolver's redirect
 * can make a manifest request land on any URL, and its body must never be read as a DID's document.
 */
const DOCUMENT_KEY_SUFFIX = "#did-document";

/** The key the did:web document of `keyRef` (`did:web:…` or `did:web:…#fragment`) gives it, or why none. */
export async function resolveDidWebKey(keyRef: string, how: DidWebFetch): Promise<RemoteKey> {
  const hash = keyRef.indexOf("#");
  const did = hash === -1 ? keyRef : keyRef.slice(0, hash);
  const located = didWebDocumentUrl(did);
  if ("fault" in located) return { fault: "did-malformed", reason: `keyRef ${keyRef}: ${located.fault}` };
  const documentUrl = located.url.href;
  if (how.from !== undefined && pointsInward(located.url, how.from))
    return {
      fault: "insecure",
      reason: `keyRef ${keyRef}: its document, ${documentUrl}, is on a local or private address, and the resolver ${how.from} is not: not fetched`,
      documentUrl,
    };
  const got = await sharedGet(located.url, how);
  const failed = (fault: KeyRefFault, reason: string): RemoteKey => ({ fault, reason, documentUrl });
  switch (got.kind) {
    case "insecure":
      return failed(got.crossOrigin === true ? "redirect-cross-origin" : "insecure", got.reason);
    case "unreachable":
      return failed(got.timedOut === true ? "timeout" : "unreachable", got.reason);
    case "status":
      return got.status === 404 || got.status === 410
        ? failed("did-not-found", `${got.url} answered ${got.status}: the DID has no document`)
        : failed("http-status", `${got.url} answered ${got.status}, not a DID document`);
    case "raw":
      return got.bytes.length > DID_DOCUMENT_MAX_BYTES
        ? failed("too-large", `${got.url}: the DID document is larger than ${DID_DOCUMENT_MAX_BYTES} bytes`)
        : failed("document-malformed", `${got.url}: the DID document is not UTF-8 text`);
  }
  const key = keyInDidDocumentText(got.entry.body, did, keyRef);
  if ("fault" in key) {
    // Another DID's document, or not one at all, is not kept: the next request may find the right one.
    if (key.fault !== "document-id-mismatch" && key.fault !== "document-malformed") await got.save();
    return failed(key.fault, `${got.entry.url}: ${key.reason}`);
  }
  await got.save();
  return { publicKey: key.publicKey, documentUrl: got.entry.url };
}

function sharedGet(url: URL, how: DidWebFetch): Promise<Got> {
  const scope = how.cache ?? how.transport.fetch;
  const byKey = inFlight.get(scope) ?? new Map<string, Promise<Got>>();
  inFlight.set(scope, byKey);
  const key = `${how.now} ${url.href}`;
  const pending = byKey.get(key);
  if (pending !== undefined) return pending;
  const { now } = how;
  const got = cachedGet({
    url: url.href,
    cacheKey: url.href + DOCUMENT_KEY_SUFFIX,
    accept: DID_DOCUMENT_TYPES,
    maxBytes: DID_DOCUMENT_MAX_BYTES,
    now,
    cache: how.cache,
    transport: how.transport,
    sameOrigin: true,
    judge: (entry) => {
      // Only a document from the DID's origin is the DID's, however it came to be kept: another is asked for again.
      const own = URL.canParse(entry.url) && new URL(entry.url).origin === url.origin;
      return { fresh: own && storedWithin(entry, freshFor(entry), now), validator: own ? entry.etag : undefined };
    },
  }).finally(() => byKey.delete(key));
  byKey.set(key, got);
  return got;
}

/** A document's max-age, at most a day: a key its DID withdrew is believed no longer than that. */
function freshFor(entry: CachedEntry): number {
  return Math.min(entry.maxAge, MAX_DOCUMENT_AGE_S);
}
