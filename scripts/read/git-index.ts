/**
 * git's index read as it stands (gitformat-index(5)), without asking git to refresh it:
 * for each file under a folder, the blob id the index holds and the status git recorded
 * when it last vouched for the file's bytes. A file is vouched for only when its status
 * now is the one recorded to the nanosecond (modification and change times, inode, size,
 * owner, executable bit); and, when the index was written in the tick of its modification
 * time (git's racy rule: an edit in that tick would keep its status), only when its bytes
 * are still the blob's, read and hashed as git compares them. A fresh clone's files were
 * written before its index, so all but those of its last tick are vouched for unread,
 * where `git diff-files` would read every one modified in the second the clone ended.
 *
 * Versions 2 to 4 are read; an index split in two (`link`) or that does not match its
 * trailing hash is not used at all, and neither is any entry git itself no longer looks at
 * (assume-unchanged, skip-worktree, intent-to-add), nor a link, submodule or conflict.
 */
import { createHash } from "node:crypto";
import { type BigIntStats, closeSync, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import { readFully } from "./read-fully.ts";

/** The hash of a repository's objects, which names its blobs. */
export type GitAlgorithm = "sha1" | "sha256";

/** Far more than the index of a million files. */
const MAX_INDEX_BYTES = 1024n ** 3n;
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const NAME_LENGTH = 0xfff;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
const REGULAR = 0o100000;
const EXECUTABLE = 0o100;
const TYPE_MASK = 0o170000;

/**
 * The blob id of each file under `prefix` (the folder, relative to the top of the working tree `top`, with `/`, or ""
 * for the top) that the index at `indexPath` vouches for, named relative to that folder; undefined when the index
 * cannot be used.
 */
export function indexedBlobs(
  indexPath: string,
  algorithm: GitAlgorithm,
  top: string,
  prefix: string,
): Map<string, string> | undefined {
  let bytes: Buffer;
  let written: BigIntStats;
  let fd: number | undefined;
  try {
    fd = openSync(indexPath, "r");
    written = fstatSync(fd, { bigint: true });
    if (!written.isFile() || written.size > MAX_INDEX_BYTES) return undefined;
    bytes = readFully(fd, Number(written.size));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const idBytes = algorithm === "sha1" ? 20 : 32;
  if (bytes.byteLength < 12 + idBytes || bytes.toString("latin1", 0, 4) !== "DIRC") return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const body = bytes.subarray(0, bytes.byteLength - idBytes);
  const trailer = bytes.subarray(body.byteLength);
  // index.skipHash leaves the trailing hash zero.
  if (trailer.some((b) => b !== 0) && !createHash(algorithm).update(body).digest().equals(trailer)) return undefined;
  const count = bytes.readUInt32BE(8);
  const blobs = new Map<string, string>();
  const under = prefix === "" ? "" : `${prefix}/`;
  let at = 12;
  let previous = "";
  for (let n = 0; n < count; n++) {
    const start = at;
    const fixed = 40 + idBytes;
    if (at + fixed + 2 > body.byteLength) return undefined;
    const flags = body.readUInt16BE(at + fixed);
    let extended = 0;
    at += fixed + 2;
    if ((flags & EXTENDED) !== 0) {
      if (version < 3 || at + 2 > body.byteLength) return undefined;
      extended = body.readUInt16BE(at);
      at += 2;
    }
    let name: string;
    if (version === 4) {
      // The name is the previous one less its last `strip` bytes, then this entry's NUL-terminated rest.
      let c = body[at++]!;
      let strip = c & 127;
      while ((c & 128) !== 0) {
        c = body[at++]!;
        strip = ((strip + 1) << 7) + (c & 127);
      }
      const end = body.indexOf(0, at);
      const kept = Buffer.byteLength(previous) - strip;
      if (end < 0 || kept < 0) return undefined;
      name = Buffer.concat([Buffer.from(previous).subarray(0, kept), body.subarray(at, end)]).toString("utf8");
      at = end + 1;
    } else {
      const end = body.indexOf(0, at);
      if (end < 0) return undefined;
      name = body.toString("utf8", at, end);
      // Padded with one to eight NULs to a multiple of eight bytes from the entry's start.
      at = start + Math.ceil((end + 1 - start) / 8) * 8;
    }
    previous = name;
    if (!name.startsWith(under)) continue;
    const mode = body.readUInt32BE(start + 24);
    if (
      (mode & TYPE_MASK) !== REGULAR ||
      (flags & (ASSUME_VALID | STAGE)) !== 0 ||
      (extended & (SKIP_WORKTREE | INTENT_TO_ADD)) !== 0 ||
      (flags & NAME_LENGTH) === 0
    )
      continue;
    // Joined by hand: path.join's normalizing costs as much as the status itself, and the index's names are clean.
    if (!vouched(body, start, mode, `${top}/${name}`, written, idBytes)) continue;
    blobs.set(name.slice(under.length), body.toString("hex", start + 40, start + 40 + idBytes));
  }
  // An index split in two holds only part of the entries: `link` is the one extension git requires to understand.
  for (; at + 8 <= body.byteLength; at += 8 + body.readUInt32BE(at + 4))
    if (body.toString("latin1", at, at + 4) === "link") return undefined;
  return blobs;
}

/**
 * Whether the file at `path` still has the status its entry at `start` recorded, and, where the index was written in
 * the tick of its modification time (racily clean), still has its blob's bytes, as git itself compares them.
 */
function vouched(entry: Buffer, start: number, mode: number, path: string, index: BigIntStats, idBytes: number) {
  const stat = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile()) return false;
  const word = (at: number) => entry.readUInt32BE(start + at);
  const time = (at: number) => BigInt(word(at)) * 1_000_000_000n + BigInt(word(at + 4));
  const mtimeNs = time(8);
  // The index keeps each of these in 32 bits.
  const low = (n: bigint) => Number(n & 0xffffffffn);
  const unchanged =
    stat.mtimeNs === mtimeNs &&
    stat.ctimeNs === time(0) &&
    low(stat.ino) === word(20) &&
    low(stat.uid) === word(28) &&
    low(stat.gid) === word(32) &&
    low(stat.size) === word(36) &&
    (Number(stat.mode) & EXECUTABLE) === (mode & EXECUTABLE);
  if (!unchanged) return false;
  if (mtimeNs < index.mtimeNs) return true;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return false;
  }
  const blob = createHash(idBytes === 20 ? "sha1" : "sha256")
    .update(`blob ${bytes.byteLength}\0`)
    .update(bytes)
    .digest();
  return blob.equals(entry.subarray(start + 40, start + 40 + idBytes));
}
