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
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeBase64url, utf8 } from "../../edge/base64url.ts";
import { FILE_CONCURRENCY } from "../concurrency.ts";

export const MAX_BASE64URL_NAME = 128;

export class BodyWriter {
  /** Lower-cased base64url name → the UMID written under it. */
  readonly #folded = new Map<string, string>();
  /** UMIDs named by digest (all others are named by base64url). */
  readonly #digestNamed = new Set<string>();
  /** Writes not yet finished, by UMID: a rename must wait for its file. */
  readonly #pending = new Map<string, Promise<void>>();
  readonly #ready: Promise<unknown>;
  /** Bytes written so far. */
  bytes = 0;

  constructor(readonly dir: string) {
    this.#ready = Promise.all([mkdir(join(dir, "m")), mkdir(join(dir, "h"))]);
  }

  /** The file of `umid`'s body, relative to the output root. */
  nameOf(umid: string): string {
    return this.#digestNamed.has(umid) ? digestName(umid) : `m/${encodeBase64url(utf8(umid))}`;
  }

  /** Starts writing a body; resolves once there is room for another in flight. */
  async write(umid: string, body: Uint8Array): Promise<void> {
    await this.#ready;
    this.bytes += body.byteLength;
    const name = encodeBase64url(utf8(umid));
    const folded = name.toLowerCase();
    const twin = this.#folded.get(folded);
    let work: Promise<void>;
    if (name.length > MAX_BASE64URL_NAME || twin !== undefined) {
      this.#digestNamed.add(umid);
      work = writeFile(join(this.dir, digestName(umid)), body);
      if (twin !== undefined && !this.#digestNamed.has(twin)) work = Promise.all([work, this.#moveToDigestName(twin)]).then(() => {});
    } else {
      this.#folded.set(folded, umid);
      work = writeFile(join(this.dir, `m/${name}`), body);
    }
    this.#pending.set(umid, work);
    void work.then(() => this.#pending.delete(umid), () => {});
    if (this.#pending.size >= FILE_CONCURRENCY) await Promise.race(this.#pending.values());
  }

  /** Resolves when every body is on disk; rejects if any write failed. */
  async settled(): Promise<void> {
    await Promise.all(this.#pending.values());
  }

  async #moveToDigestName(umid: string): Promise<void> {
    const from = this.nameOf(umid);
    this.#digestNamed.add(umid);
    await this.#pending.get(umid);
    await rename(join(this.dir, from), join(this.dir, digestName(umid)));
  }
}

function digestName(umid: string): string {
  return `h/${createHash("sha256").update(umid, "utf8").digest("hex")}`;
}
