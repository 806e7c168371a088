/**
 * Stored files read by a name and the ETag the build recorded for them (a manifest's body, a routed document), each
 * checked against that ETag before it is served or kept: never a body that is not the one built. Kept in a bounded
 * cache, each with the ETag it was checked against, and served from there only for a name and ETag that match.
 */
import { LruCache } from "../core/lru-cache.ts";
import { etagOf } from "./etag.ts";

/** The bytes of a stored file, or why they cannot be served. */
export type CheckedFile = { body: Uint8Array<ArrayBuffer> } | { problem: "missing" | "not the one that was built" };

export class CheckedFiles {
  readonly #files: LruCache<{ etag: string; body: Uint8Array<ArrayBuffer> }>;

  constructor(maxBytes: number) {
    this.#files = new LruCache(maxBytes);
  }

  /** The file stored as `name`, if its bytes (through `read`: undefined when there are none) have ETag `etag`. */
  async read(
    name: string,
    etag: string,
    read: (name: string) => Promise<Uint8Array<ArrayBuffer> | undefined>,
  ): Promise<CheckedFile> {
    const cached = this.#files.get(name);
    if (cached?.etag === etag) return { body: cached.body };
    const body = await read(name);
    if (body === undefined) return { problem: "missing" };
    if ((await etagOf(body)) !== etag) return { problem: "not the one that was built" };
    this.#files.set(name, { etag, body }, body.byteLength + name.length);
    return { body };
  }
}
