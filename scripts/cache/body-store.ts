/**
 * The bodies the build published, in the cache folder, named by their SHA-256 (the digest
 * their ETag carries, which the cache's entries keep apart from the bodies). A build
 * publishes an unchanged manifest's body from here instead of making it again from its
 * file: Netlify clones the repository afresh for every build, but keeps node_modules/.cache.
 *
 * The store is a folder any process of the user's can write, and a shared CI cache is
 * restored from elsewhere: a body is recalled only when its bytes still have the digest it
 * is named by, and is copied into the output, never linked, so that nothing done to a
 * served file can reach the store or a later build. A body is written whole under a
 * temporary name and renamed, so that a kill or a full disk leaves no part of one.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Read-only: an edit by mistake is refused, though a recall checks every body all the same. */
const BODY_MODE = 0o444;

/** What `recall` found: the body, none (`missing`), or bytes that are not the body of their digest (`altered`, now removed). */
export type Recalled = Uint8Array | "missing" | "altered";

export class BodyStore {
  /** The digests (lowercase hex) held: at the start of the run, less those found altered. */
  readonly #held: Set<string>;
  /** Why the store takes no more bodies this run: the file system refused one. */
  #unwritable?: Error;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.#held = new Set(readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name)));
  }

  holds(digest: string): boolean {
    return this.#held.has(digest);
  }

  /** The write the file system refused, if one was: the store took no body after it. */
  get unwritable(): Error | undefined {
    return this.#unwritable;
  }

  /** Keeps `body` for later builds, unless the store holds it. A refused write costs the cache, never the build. */
  keep(body: Uint8Array): void {
    const digest = sha256Hex(body);
    if (this.#unwritable !== undefined || this.#held.has(digest)) return;
    const stored = join(this.dir, digest);
    const temporary = `${stored}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, body, { mode: BODY_MODE });
      renameSync(temporary, stored);
      this.#held.add(digest);
    } catch (error) {
      this.#unwritable = error as Error;
      removeIfAble(temporary);
    }
  }

  /** The body `digest`, if the store still has it and its bytes are still that body. */
  recall(digest: string): Recalled {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(this.dir, digest));
    } catch {
      // Pruned by another run, or unreadable: either way the file is checked again.
      return "missing";
    }
    if (sha256Hex(bytes) === digest) return bytes;
    this.#held.delete(digest);
    removeIfAble(join(this.dir, digest));
    return "altered";
  }

  /** Removes every body held that `wanted` does not name (another run may have removed it first). */
  prune(wanted: ReadonlySet<string>): void {
    for (const digest of this.#held) if (!wanted.has(digest)) rmSync(join(this.dir, digest), { force: true });
  }
}

/** Removes `path`; on a store that refuses it (read-only), the next run finds it, and judges it, again. */
function removeIfAble(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing to do: the store is read-only, and a recall checks every body.
  }
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
