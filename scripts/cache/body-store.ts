/**
 * The bodies the build published, in the cache folder, named by their SHA-256 (the digest
 * their ETag carries). A build links an unchanged manifest's body from here into its
 * staging folder instead of writing it again: a hard link copies nothing, and the output it
 * replaces holds the same files (the same inodes), so this is its previous output kept
 * where a host keeps it (Netlify clones the repository afresh for every build, but keeps
 * node_modules/.cache). Bodies are made read-only, so that an edit of a served file in
 * place cannot reach the next build; where a link is impossible (another file system), the
 * body is copied.
 */
import { chmodSync, copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The mode of a body the store holds, given when the build writes it: one system call less per body than a chmod. */
export const BODY_MODE = 0o444;

export class BodyStore {
  /** The digests (lowercase hex) held when the run began. */
  readonly held: ReadonlySet<string>;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.held = new Set(readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name)));
  }

  /** Puts the body written at `path` (read-only: see `BODY_MODE`) in the store, unless it is there already. */
  keep(path: string, digest: string): void {
    const stored = join(this.dir, digest);
    try {
      linkSync(path, stored);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      copyFileSync(path, stored);
      chmodSync(stored, BODY_MODE);
    }
  }

  /** Places the stored body `digest` at `path`; false when the store no longer has it. */
  place(digest: string, path: string): boolean {
    const stored = join(this.dir, digest);
    try {
      linkSync(stored, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return false;
      if (code !== "EXDEV" && code !== "EPERM" && code !== "EMLINK") throw error;
      copyFileSync(stored, path);
    }
    return true;
  }

  read(digest: string): Uint8Array {
    return readFileSync(join(this.dir, digest));
  }

  /** Removes every body held at the start that `wanted` does not name (another run may have removed it first). */
  prune(wanted: ReadonlySet<string>): void {
    for (const digest of this.held) if (!wanted.has(digest)) rmSync(join(this.dir, digest), { force: true });
  }
}
