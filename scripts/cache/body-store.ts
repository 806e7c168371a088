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
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NotACacheFile, readRegularFile } from "./regular-file.ts";

/** Read-only: an edit by mistake is refused, though a recall checks every body all the same. */
const BODY_MODE = 0o444;

/**
 * What `recall` found: the body, none (`missing`), or bytes that are not the body of their digest (`altered`, now
 * removed).
 */
export type RecalledBody = Uint8Array | "missing" | "altered";

export class BodyStore {
  /** The digests (lowercase hex) held: at the start of the run, less those found altered. */
  readonly #held: Set<string>;
  /** The bodies this run kept, removed again if the file system refuses one of them. */
  readonly #kept: string[] = [];
  /** Temporary files of runs killed while keeping a body, at the start of this run. */
  readonly #temporaries: string[];
  /** Why the store takes no more bodies this run: the file system refused one. */
  #unwritable?: Error;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    // A link would make the store write, and prune, wherever it points.
    if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a folder (a symbolic link, or a file)`);
    const names = readdirSync(dir);
    this.#held = new Set(names.filter((name) => /^[0-9a-f]{64}$/.test(name)));
    this.#temporaries = names.filter((name) => /^[0-9a-f]{64}\.\d+\.tmp$/.test(name));
  }

  holds(digest: string): boolean {
    return this.#held.has(digest);
  }

  /** The write the file system refused, if one was: the store took no body after it. */
  get unwritable(): Error | undefined {
    return this.#unwritable;
  }

  /**
   * Keeps the body at `path` (an output's file, which the build wrote) for later builds if
   * it is the body of `digest` and the store does not hold it. A refused write costs the
   * cache, never the build: it removes what this run kept (on a full disk, that space is
   * the output's) and keeps nothing more.
   */
  keep(path: string, digest: string): void {
    if (this.#unwritable !== undefined || this.#held.has(digest)) return;
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch {
      // The output's file is gone or unreadable: that body is not kept, and nothing else changes.
      return;
    }
    if (sha256Hex(body) !== digest) return;
    const stored = join(this.dir, digest);
    const temporary = `${stored}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, body, { mode: BODY_MODE });
      renameSync(temporary, stored);
      this.#held.add(digest);
      this.#kept.push(digest);
    } catch (error) {
      this.#unwritable = error as Error;
      removeIfAble(temporary);
      for (const kept of this.#kept) removeIfAble(join(this.dir, kept));
    }
  }

  /** The body `digest` of `bytes` bytes, if the store still has it and it is still that body. */
  recall(digest: string, bytes: number): RecalledBody {
    let body: Uint8Array;
    try {
      body = readRegularFile(join(this.dir, digest), bytes);
    } catch (error) {
      // Pruned by another run, or unreadable: either way the file is checked again. Any other thing in its place is
      // not a body.
      if (!(error instanceof NotACacheFile) || error.message === "no such file") return "missing";
      body = new Uint8Array(0);
    }
    if (body.byteLength === bytes && sha256Hex(body) === digest) return body;
    this.#held.delete(digest);
    removeIfAble(join(this.dir, digest));
    return "altered";
  }

  /**
   * Removes every body held that `wanted` does not name (another run may have removed it
   * first), and what killed runs left half-kept an hour or more ago (a run still going
   * writes its own within seconds).
   */
  prune(wanted: ReadonlySet<string>): void {
    for (const digest of this.#held) if (!wanted.has(digest)) rmSync(join(this.dir, digest), { force: true });
    const stale = Date.now() - 3600_000;
    for (const name of this.#temporaries) {
      const path = join(this.dir, name);
      if ((statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < stale) rmSync(path, { force: true });
    }
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
