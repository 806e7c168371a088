/**
 * The names under which the verification cache finds a file's entry without reading the
 * file (docs/security.md, "The verification cache"). An entry is always keyed by the
 * SHA-256 of the bytes it verified (`cacheKey`); these aliases are made from those same
 * bytes, or from the file they were read from, never from anyone's word about them:
 * - **git**: the file's git blob id, computed here from the bytes verified. A run in a git
 *   working tree asks git which files match its index (git-view.ts), and looks those up by
 *   the blob id the index holds: equal ids are equal bytes, as far as git itself trusts
 *   its hash (SHA-256, or SHA-1 hardened against collision attacks). Ids are the same in
 *   every clone, so a cache restored from another clone's build serves a fresh one.
 * - **stat**: the file's device, inode, size, modification and change times (in
 *   nanoseconds), as `fstat` gave them for the descriptor the bytes were read from. Kept
 *   only when the file was last modified well before it was read (git's racy rule: a
 *   file modified again within the same tick of a coarse clock would keep its times), so
 *   every later change shows. Only a run outside git uses them; they never match in
 *   another clone, or after a rename or a copy.
 */
import { createHash, hash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import type { GitAlgorithm } from "../read/git-view.ts";

/** How a run knows files it does not read: by git's index, or by their status (stat). */
export type IdentitySource = { git: GitAlgorithm } | "stat";

/**
 * How much older than the read a file's modification time must be for its status to vouch
 * for its bytes: coarser than any file system's timestamps (FAT's are 2 s), with room for
 * a network file system's clock being a little ahead.
 */
const RACY_NS = 3_000_000_000n;

/** The id git gives a blob of `bytes`, in lower-case hex. */
function blobId(algorithm: GitAlgorithm, bytes: Uint8Array): string {
  return createHash(algorithm).update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** The alias of the file `name` (in its content root) whose git blob id is `blob`. */
export function gitAlias(scope: string, name: string, algorithm: GitAlgorithm, blob: string): Uint8Array {
  return hash("sha256", `${scope}\0${name}\0git-${algorithm}\0${blob}`, "buffer");
}

/**
 * What status `stat` says of a file's bytes, read at `readAt` (nanoseconds since the epoch): its device, inode, size
 * and times; none when it was modified too recently for its status to show a later change.
 */
export function statIdentity(stat: BigIntStats, readAt: bigint): string | undefined {
  if (stat.mtimeNs >= readAt - RACY_NS || stat.ctimeNs >= readAt - RACY_NS) return undefined;
  const { dev, ino, size, mtimeNs, ctimeNs } = stat;
  return `${dev}:${ino}:${size}:${mtimeNs}:${ctimeNs}`;
}

/** The alias of the file `name` whose status says `identity` (statIdentity). */
export function statAlias(scope: string, name: string, identity: string): Uint8Array {
  return hash("sha256", `${scope}\0${name}\0stat\0${identity}`, "buffer");
}

/** The alias a run of `source` keeps for bytes it verified (or recalled by reading) from the file `name`. */
export function aliasOf(
  source: IdentitySource,
  scope: string,
  name: string,
  bytes: Uint8Array,
  stat: BigIntStats,
): Uint8Array | undefined {
  if (source !== "stat") return gitAlias(scope, name, source.git, blobId(source.git, bytes));
  const identity = statIdentity(stat, BigInt(Date.now()) * 1_000_000n);
  return identity === undefined ? undefined : statAlias(scope, name, identity);
}
