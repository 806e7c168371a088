/**
 * The file each published body is served from, chosen so that it survives real hosts. A
 * body is named by the base64url of its UMID (`m/<b64u>`), unless that name cannot survive:
 * - Netlify (and macOS) match static paths case-insensitively, and base64url names can
 *   differ only in case: every UMID of such a group is named by digest instead, the
 *   earlier ones renamed when a later one arrives, so the result does not depend on order;
 * - file systems cap names at 255 bytes (some encrypted ones at 143): long names are too.
 * Digest names (`h/<lowercase hex SHA-256 of the UMID>`) live in their own folder, so
 * they can never meet a base64url name; the index says which name a UMID has.
 *
 * Names are planned one UMID at a time, as the check hands manifests over, so that the
 * writer can put each body in place at once: `add` says where, and which earlier body
 * moves to make room.
 */
import { createHash } from "node:crypto";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import { fnv1a32 } from "../../edge/records.ts";

const MAX_BASE64URL_NAME = 128;

/** The folders body files live in, relative to the output root. */
export const BODY_FOLDERS = ["m", "h"] as const;

/** Where a new body goes, and the earlier body that must move first (its case twin), if any. */
export interface Placement {
  file: string;
  move?: { from: string; to: string };
}

export class BodyNames {
  /**
   * The UMIDs named by base64url, by the hash of the lower-cased name: a million names
   * would cost more memory as keys than their hashes do.
   */
  readonly #byFoldedHash = new Map<number, string | string[]>();
  /** UMIDs named by digest (all others are named by base64url). */
  readonly #digestNamed = new Set<string>();

  /** The file of `umid`'s body, relative to the output root. */
  fileOf(umid: string): string {
    return this.#digestNamed.has(umid) ? digestName(umid) : `m/${encodeBase64url(utf8(umid))}`;
  }

  add(umid: string): Placement {
    const name = encodeBase64url(utf8(umid));
    const folded = name.toLowerCase();
    // As a signed 32-bit integer, a key is stored inline rather than as a boxed number.
    const hash = fnv1a32(folded) | 0;
    const twin = this.#twinOf(folded, hash);
    if (name.length <= MAX_BASE64URL_NAME && twin === undefined) {
      const others = this.#byFoldedHash.get(hash);
      this.#byFoldedHash.set(hash, others === undefined ? umid : [others, umid].flat());
      return { file: `m/${name}` };
    }
    this.#digestNamed.add(umid);
    if (twin === undefined || this.#digestNamed.has(twin)) return { file: digestName(umid) };
    const from = this.fileOf(twin);
    this.#digestNamed.add(twin);
    return { file: digestName(umid), move: { from, to: digestName(twin) } };
  }

  /** The UMID already named by a base64url name equal to `folded` but for letter case. */
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
