/**
 * A resolver's transparency log over HTTP, as a TileStore (core/tlog/tile-hashes.ts): a
 * file is a GET of its path under the log's URL, by the client's rules for every request
 * (https: or loopback http:, redirects held to them: fetch-following.ts), 404 a file that
 * is not there. Nothing read is trusted: what is computed from it is compared with a
 * checkpoint the log's key signed.
 */
import type { TileStore } from "../tlog/tile-hashes.ts";
import { bodyAtMost } from "./conditional-get.ts";
import { discard, failure, getFollowing, type Transport } from "./fetch-following.ts";

/**
 * The largest log file read: a bundle of 256 entries, each a redirect's location of at most 8 KiB at worst; a tile is
 * 8 KiB, a bucket or a checkpoint a few.
 */
const MAX_LOG_FILE_BYTES = 4 * 1024 * 1024;

/** The files under `logUrl` (ending in a slash); `read` throws, in words, when a file cannot be had. */
export function httpTileStore(logUrl: string, transport: Transport): TileStore {
  return {
    async read(path) {
      const followed = await getFollowing(logUrl + path, {}, transport);
      if (followed.kind !== "response") throw new Error(followed.reason);
      const { response, url } = followed;
      if (response.status !== 200) {
        await discard(response);
        if (response.status === 404) return undefined;
        throw new Error(`${url} answered ${response.status}`);
      }
      let bytes: Uint8Array;
      try {
        bytes = await bodyAtMost(response, MAX_LOG_FILE_BYTES);
      } catch (error) {
        throw new Error(`${url}: the body was cut off: ${failure(error)}`);
      }
      if (bytes.length > MAX_LOG_FILE_BYTES) throw new Error(`${url}: over ${MAX_LOG_FILE_BYTES} bytes`);
      return bytes;
    },
  };
}
