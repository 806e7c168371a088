/**
 * Writes manifest bodies into the staging folder as the check produces them, choosing
 * names that survive real hosts. A body is named by the base64url of its UMID
 * (`m/<b64u>`), unless that name cannot survive:
 * - Netlify (and macOS) match static paths case-insensitively, and base64url names can
 *   differ only in case: every UMID of such a group is named by digest instead, the
 *   earlier ones renamed when a later one arrives, so the result does not depend on order;
 * - file systems cap names at 255 bytes (some encrypted ones at 143): long names are too.
 * Digest names (`h/<lowercase hex SHA-256 of the UMID>`) live in their own folder, so
 * they can never meet a base64url name; the index says which name a UMID has.
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import { fnv1a32 } from "../../edge/records.ts";

export const MAX_BASE64URL_NAME = 128;

/**
 * Writes synchronously: the main thread has nothing else to do while workers check, and a
 * direct system call is several times cheaper than a round trip through libuv's pool.
 */
export class BodyWriter {
  /**
   * The UMIDs written under base64url names, by the hash of the lower-cased name: a
   * million names would cost more memory as keys than their hashes do.
   */
  readonly #byFoldedHash = new Map<number, string | string[]>();
  /** UMIDs named by digest (all others are named by base64url). */
  readonly #digestNamed = new Set<string>();
  /** Bytes written so far. */
  bytes = 0;

  constructor(readonly dir: string) {
    mkdirSync(join(dir, "m"));
    mkdirSync(join(dir, "h"));
  }

  /** The file of `umid`'s body, relative to the output root. */
  nameOf(umid: string): string {
    return this.#digestNamed.has(umid) ? digestName(umid) : `m/${encodeBase64url(utf8(umid))}`;
  }

  write(umid: string, body: Uint8Array): void {
    const name = encodeBase64url(utf8(umid));
    const folded = name.toLowerCase();
    // As a signed 32-bit integer, a key is stored inline rather than as a boxed number.
    const hash = fnv1a32(folded) | 0;
    const twin = this.#twinOf(folded, hash);
    if (name.length <= MAX_BASE64URL_NAME && twin === undefined) {
      const others = this.#byFoldedHash.get(hash);
      this.#put(join(this.dir, `m/${name}`), body);
      this.#byFoldedHash.set(hash, others === undefined ? umid : [others, umid].flat());
      return;
    }
    if (twin !== undefined && !this.#digestNamed.has(twin)) {
      renameSync(join(this.dir, this.nameOf(twin)), join(this.dir, digestName(twin)));
      this.#digestNamed.add(twin);
    }
    this.#put(join(this.dir, digestName(umid)), body);
    this.#digestNamed.add(umid);
  }

  #put(path: string, body: Uint8Array): void {
    writeFileSync(path, body);
    this.bytes += body.byteLength;
  }

  /** The UMID already written under a name equal to `folded` but for letter case. */
  #twinOf(folded: string, hash: number): string | undefined {
    const candidates = this.#byFoldedHash.get(hash);
    for (const umid of candidates === undefined ? [] : [candidates].flat()) {
      if (encodeBase64url(utf8(umid)).toLowerCase() === folded) return umid;
    }
    return undefined;
  }
}

function digestName(umid: string): string {
  return `h/${createHash("sha256").update(umid, "utf8").digest("hex")}`;
}
