/**
 * A log as a resolver serves it, read over HTTP (issue 26): its files under
 * `{base}/.well-known/manifest-resolver/log/`, each got with the client's GET (core/client:
 * https: or loopback http: only, redirects held to the same rule, a timeout) and read up to
 * a bound, so that a server cannot exhaust the reader with an endless body. Nothing read is
 * trusted for being read: the monitor checks it against a signed checkpoint.
 */
import { utf8 } from "../../core/base64url.ts";
import { cachedGet } from "../../core/client/conditional-get.ts";
import { globalFetch } from "../../core/client/fetch-following.ts";
import { maxBundleBytes } from "../../core/tlog/entry-bundle.ts";
import { HASH_SIZE } from "../../core/tlog/merkle.ts";
import { parseTilePath } from "../../core/tlog/tile.ts";
import type { TileStore } from "../../core/tlog/tile-hashes.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";

/** As long as the client waits for a manifest. */
const TIMEOUT_MS = 10_000;

/** A signed checkpoint is a few lines and signatures: far less than this. */
export const MAX_CHECKPOINT_BYTES = 64 * 1024;

/** A file of the log that could not be read: no answer, or an answer other than 200 or 404. */
export class ServedLogError extends Error {}

/** The URL of the log a resolver at `baseUrl` serves, ending in a slash: its files' paths follow. */
export function servedLogUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${LOG_PREFIX}/`;
}

/**
 * The bytes of the file at `url`, or undefined when it answers 404. A body longer than
 * `maxBytes` is returned cut at one byte more: longer than any file that could be the
 * right one, so whatever compares it refuses it. Throws ServedLogError.
 */
export async function getServed(url: string, maxBytes: number): Promise<Uint8Array | undefined> {
  const got = await cachedGet({
    url,
    accept: "*/*",
    maxBytes,
    now: Date.now(),
    cache: undefined,
    transport: { fetch: globalFetch, timeoutMs: TIMEOUT_MS },
    // With no cache there is no entry to judge.
    judge: () => ({ fresh: false, validator: undefined }),
  });
  switch (got.kind) {
    case "entry":
      // Decoded as strict UTF-8 with any BOM kept: encoding it again gives the bytes served.
      return utf8(got.entry.body);
    case "raw":
      return got.bytes;
    case "status":
      if (got.status === 404) return undefined;
      throw new ServedLogError(`${got.url} answered ${got.status}`);
    default:
      throw new ServedLogError(got.reason);
  }
}

/** The tiles and entry bundles of the log at `logUrl`, each read up to the most its path allows. */
export function servedTileStore(logUrl: string): TileStore {
  return {
    read(path) {
      const tile = parseTilePath(path);
      if (tile === undefined) throw new RangeError(`${path} is not a tile's path`);
      const maxBytes = tile.level === "entries" ? maxBundleBytes(tile.width) : tile.width * HASH_SIZE;
      return getServed(logUrl + path, maxBytes);
    },
  };
}
