/**
 * The file each published body is served from, chosen so that it survives real hosts and
 * stays where it is from one build to the next. A body is named by the base64url of its
 * UMID, in the folder named like the UMID's index shard: `m/<xyz>/<b64u>`, where `xyz`
 * is the `xyz` of `index/<xyz>.json` (`shardOf` in edge/records.ts). So no folder grows
 * with the registry: 4,096 folders under `m/`, at 10 million manifests about 2,450 bodies
 * in each (scripts/plan/host-limits.ts). A UMID's place depends on the UMID alone, unless
 * its base64url name cannot survive:
 * - Netlify (and macOS) match static paths case-insensitively, and base64url names can
 *   differ only in case. Two such names meet only in the same folder (folder names are
 *   lower-case hex): then every UMID of that group is named by digest, the earlier ones
 *   renamed when a later one arrives, so the result does not depend on order. This is
 *   the one place that depends on other UMIDs: on the case twins in the UMID's folder.
 * - file systems cap names at 255 bytes (some encrypted ones at 143): long names are too.
 * Digest names (`h/<abc>/<lowercase hex SHA-256 of the UMID>`, `abc` its first three
 * digits) live in their own folders, so they can never meet a base64url name; the index
 * says which name a UMID has.
 *
 * Names are planned one UMID at a time, as the check hands manifests over, so that the
 * writer can put each body in place at once: `add` says where, and which earlier body
 * moves to make room.
 */
import { createHash } from "node:crypto";
import { fnv1a32, shardOf } from "../../edge/shard-file.ts";

const MAX_BASE64URL_NAME = 128;

/** Where a new body goes, and the earlier body that must move first (its case twin), if any. */
export interface Placement {
  file: string;
  move?: { from: string; to: string };
}

export class BodyNames {
  /**
   * The UMIDs named by base64url, by the hash of their lower-cased path: a million paths
   * would cost more memory as keys than their hashes do.
   */
  readonly #byFoldedHash = new Map<number, string | string[]>();
  /** UMIDs named by digest (all others are named by base64url). */
  readonly #digestNamed = new Set<string>();

  /** The file of `umid`'s body, relative to the output root. */
  fileOf(umid: string): string {
    return this.#digestNamed.has(umid) ? digestFile(umid) : base64urlFile(umid);
  }

  add(umid: string): Placement {
    const name = base64urlOf(umid);
    const file = base64urlFile(umid, name);
    // The folder is lower-case already: paths equal but for case are names equal but for case, in one folder.
    const folded = file.toLowerCase();
    // As a signed 32-bit integer, a key is stored inline rather than as a boxed number.
    const hash = fnv1a32(folded) | 0;
    const twin = this.#twinOf(folded, hash);
    if (name.length <= MAX_BASE64URL_NAME && twin === undefined) {
      const others = this.#byFoldedHash.get(hash);
      this.#byFoldedHash.set(hash, others === undefined ? umid : [others, umid].flat());
      return { file };
    }
    this.#digestNamed.add(umid);
    if (twin === undefined || this.#digestNamed.has(twin)) return { file: digestFile(umid) };
    const from = this.fileOf(twin);
    this.#digestNamed.add(twin);
    return { file: digestFile(umid), move: { from, to: digestFile(twin) } };
  }

  /** The UMID already named by a base64url path equal to `folded` but for letter case. */
  #twinOf(folded: string, hash: number): string | undefined {
    const candidates = this.#byFoldedHash.get(hash);
    for (const umid of candidates === undefined ? [] : [candidates].flat()) {
      if (base64urlFile(umid).toLowerCase() === folded) return umid;
    }
    return undefined;
  }
}

function base64urlFile(umid: string, name = base64urlOf(umid)): string {
  return `m/${shardOf(umid)}/${name}`;
}

/**
 * The base64url of `umid`'s UTF-8 bytes, as core/base64url.ts makes it, by Node's own encoder: a name is made for
 * every published UMID several times a build (its placement, its record, its inputs), and this one is 3x faster.
 */
function base64urlOf(umid: string): string {
  return Buffer.from(umid, "utf8").toString("base64url");
}

function digestFile(umid: string): string {
  const digest = createHash("sha256").update(umid, "utf8").digest("hex");
  return `h/${digest.slice(0, 3)}/${digest}`;
}
