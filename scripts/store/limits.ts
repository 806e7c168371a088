/**
 * The limits of what the cache folder keeps (scripts/store/, scripts/cache/, the log's kept state), in one place: how
 * large a file of it may be before it is taken for one this tool did not write, how many unused entries are kept, how
 * many segments the blobs may spread over, and when a leftover of another run is stale. The trust model they serve is
 * written once, in docs/security.md ("The verification cache").
 */

/** Far more than a million entries take (about 230 MB): a larger verification file is not one this tool wrote. */
export const MAX_CACHE_FILE_BYTES = 1024 ** 3;
/** Far more than the index of ten million blobs: a larger index is not one this tool wrote. */
export const MAX_INDEX_BYTES = 1024 ** 3;
/** Far more than the state of a log of a few million entries (scripts/log/state-store.ts). */
export const MAX_LOG_STATE_BYTES = 1024 ** 3;
/** Entries a run did not use (another branch's, production's beside a preview's) kept beyond those it used. */
export const KEPT_BEYOND_USED = 1000;
/**
 * The output states a store keeps beyond those its last run wrote or read: the outputs of other branches, or
 * production's beside a preview's, that share one cache and update in place in turn.
 */
export const MAX_KEPT_BLOBS = 16;
/** Beyond these, all segments but the fullest are copied into one: each run with changes writes one. */
export const MAX_SEGMENTS = 16;
/**
 * A run still going writes its temporaries and its segment within this; a leftover older than this, which nothing
 * names, is a killed run's. One rule for every sweep of the cache folder.
 */
export const STALE_MS = 3600_000;
