/**
 * A resolver's transparency log over HTTP, as a TileStore (core/tlog/tile-hashes.ts): a
 * file is a GET of its path under the log's URL, by the client's rules for every request
 * (https: or loopback http:, redirects held to them: fetch-following.ts), 404 a file that
 * is not there. Nothing read is trusted: what is computed from it is compared with a
 * checkpoint the log's key signed.
 */
import { maxBundleBytes } from "../tlog/entry-bundle.ts";
import { HASH_SIZE } from "../tlog/merkle.ts";
import { parseTilePath } from "../tlog/tile.ts";
import type { TileStore } from "../tlog/tile-hashes.ts";
import { bodyAtMost } from "../http/conditional-get.ts";
import { discard, failure, getFollowing, type Transport } from "../http/fetch-following.ts";

/** The most read of a file that is no tile: a checkpoint is a few lines, a bucket file a few kilobytes. */
const MAX_OTHER_BYTES = 1024 * 1024;

/** The most a file at `path` can be: a tile or bundle, by its width; any other, MAX_OTHER_BYTES. */
function maxBytesAt(path: string): number {
  const tile = parseTilePath(path);
  if (tile === undefined) return MAX_OTHER_BYTES;
  return tile.level === "entries" ? maxBundleBytes(tile.width) : tile.width * HASH_SIZE;
}

/** A file of the log that could not be had: no answer, an answer other than 200 or 404, or too long a body. */
export class LogReadError extends Error {}

/**
 * A file longer than any the log can serve at its path (a tile or bundle, longer than its width allows): the log's
 * fault, not the network's. `path` is under the log's URL.
 */
export class LogFileTooLarge extends LogReadError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The files under `logUrl` (ending in a slash); `read` throws LogReadError when a file cannot be had. */
export function httpTileStore(logUrl: string, transport: Transport): TileStore {
  return {
    async read(path) {
      const followed = await getFollowing(logUrl + path, {}, transport);
      if (followed.kind !== "response") throw new LogReadError(followed.reason);
      const { response, url } = followed;
      if (response.status !== 200) {
        await discard(response);
        if (response.status === 404) return undefined;
        throw new LogReadError(`${url} answered ${response.status}`);
      }
      const maxBytes = maxBytesAt(path);
      let bytes: Uint8Array;
      try {
        bytes = await bodyAtMost(response, maxBytes);
      } catch (error) {
        throw new LogReadError(`${url}: the body was cut off: ${failure(error)}`);
      }
      if (bytes.length > maxBytes) throw new LogFileTooLarge(path, `${url}: over the ${maxBytes} bytes it can hold`);
      return bytes;
    },
  };
}
