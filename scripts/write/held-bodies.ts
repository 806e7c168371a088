/**
 * The bodies a build checked in this run, held in memory up to a budget: what it writes once the output is written
 * (the Workers KV files, the cache's store) takes a body from here rather than reading it back from the file the
 * output serves it from and hashing it again. On a cold build of 20,000 manifests those reads were a third of the
 * time the build spends after its last check (docs/benchmarks.md). Past the budget a body is read back as before, so
 * a registry of any size holds at most the budget.
 *
 * A held body is the bytes the check hashed to the digest it is held under, and that the output was written with:
 * nothing done to the output's files since reaches it.
 */

/** Held at most: a cold build of the bench's 20,000 manifests holds about 90 MiB. */
const HELD_BODY_BYTES = 128 * 1024 * 1024;
/**
 * Past this many manifests nothing is held: a registry's own tables then grow toward the 1 GiB a build may take (a
 * million manifests took 975 MiB, docs/benchmarks.md), and the reads saved are a small part of its time.
 */
const HELD_MANIFESTS = 50_000;

export class HeldBodies {
  readonly #bodies = new Map<string, Uint8Array>();
  #bytes = 0;

  constructor(readonly budget: number) {}

  /** Bodies held for a build of `manifests` manifest files. */
  static forBuild(manifests: number): HeldBodies {
    return new HeldBodies(manifests <= HELD_MANIFESTS ? HELD_BODY_BYTES : 0);
  }

  /** Holds `body`, whose SHA-256 is `digest`, if the budget has room for it. */
  hold(digest: Uint8Array, body: Uint8Array): void {
    if (this.#bytes + body.byteLength > this.budget) return;
    const key = keyOf(digest);
    if (this.#bodies.has(key)) return;
    this.#bodies.set(key, body);
    this.#bytes += body.byteLength;
  }

  /** The body held under `digest`, if one is. */
  get(digest: Uint8Array): Uint8Array | undefined {
    return this.#bodies.get(keyOf(digest));
  }
}

function keyOf(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("latin1");
}
