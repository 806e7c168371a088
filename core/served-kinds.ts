/**
 * How each kind of document the resolver serves beside its manifests is served: its media type and how long caches
 * may keep it. The build writes them into the route table's rows (scripts/plan/, scripts/log/log-output.ts) and the
 * descriptor states them (edge/descriptor.ts); the edge sends a row's values as they stand, knowing no kind.
 */

export const JSON_CONTENT_TYPE = "application/json";
/** A manifest, a redirect, a status document, a did:web document. */
export const CACHE_RESOLVED = "public, max-age=60";
/**
 * The log's checkpoint changes with each deploy that appends to it: C2SP tlog-tiles asks that its headers "prevent
 * caching beyond a few seconds", so that a client checking a manifest it just fetched finds a checkpoint at least
 * about as new. A partial tile is kept no longer: its bytes never change, but it is served only while it is the
 * tree's right edge, and a short life bounds what caches keep of a log started again under the same prefix.
 */
export const CACHE_LOG_EDGE = "public, max-age=5";
/** Full tiles, entry bundles and bucket files: their path names what they hold (a bucket's, its tree's size). */
export const CACHE_IMMUTABLE = "public, max-age=31536000, immutable";
/**
 * A status list is fetched once for many manifests: a relying party keeps it this long (the list's own ttl, 300 s,
 * is the same), and the discovery document with it.
 */
export const CACHE_WELL_KNOWN = "public, max-age=300";

/** What a route row says of how its document is served. */
export interface ServedKind {
  contentType: string;
  cacheControl: string;
}

/** A DID document in its JSON representation (DID Core §6.2, IANA-registered), cached like a manifest. */
export const DID_DOCUMENT: ServedKind = { contentType: "application/did+json", cacheControl: CACHE_RESOLVED };
/** A VC Data Model 2.0 credential, secured by an embedded proof (VC Data Model 2.0 §6.3). */
export const STATUS_LIST: ServedKind = { contentType: "application/vc+ld+json", cacheControl: CACHE_WELL_KNOWN };
/** The discovery document (EXT-OPT O5). */
export const RESOLVERS_DOCUMENT: ServedKind = { contentType: JSON_CONTENT_TYPE, cacheControl: CACHE_WELL_KNOWN };

/** The transparency log's files (C2SP tlog-tiles: their media types, and which are immutable). */
export const LOG_CHECKPOINT: ServedKind = { contentType: "text/plain; charset=utf-8", cacheControl: CACHE_LOG_EDGE };
export const LOG_PARTIAL_TILE: ServedKind = { contentType: "application/octet-stream", cacheControl: CACHE_LOG_EDGE };
export const LOG_TILE: ServedKind = { contentType: "application/octet-stream", cacheControl: CACHE_IMMUTABLE };
export const LOG_BUCKET: ServedKind = { contentType: JSON_CONTENT_TYPE, cacheControl: CACHE_IMMUTABLE };
/**
 * A UMID's offline proof (C2SP tlog-proof, composed at the edge: edge/log-proof.ts). C2SP names no media type for
 * one; it is text, and it holds the checkpoint, so it changes when the checkpoint does and is kept no longer.
 */
export const LOG_PROOF: ServedKind = { contentType: "text/plain; charset=utf-8", cacheControl: CACHE_LOG_EDGE };
