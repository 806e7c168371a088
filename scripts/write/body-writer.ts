/**
 * Puts manifest bodies into the staging folder as the check hands them over, where the
 * plan names them (scripts/plan/body-names.ts), making each folder on its first body. It
 * counts the bodies of each folder: hosts limit the files of one folder, and a hash
 * spreads UMIDs evenly only when nobody chose them to collide.
 *
 * Writes synchronously: the main thread has nothing else to do while workers check, and a
 * direct system call is several times cheaper than a round trip through libuv's pool.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Placement } from "../plan/body-names.ts";

export class BodyWriter {
  /** The bodies written. */
  bodies = 0;
  /** The bodies in each folder made so far, by its path from the output root. */
  readonly #bodiesIn = new Map<string, number>();

  constructor(readonly dir: string) {}

  /**
   * Writes `body` where `placed` puts it, after moving the earlier body it names if that one is written here (in an
   * update in place, it may not be). Without `body` (one the previous output holds), only that move is made.
   */
  write(placed: Placement, body?: Uint8Array): void {
    const { move } = placed;
    if (move !== undefined && this.holds(move.from)) {
      this.#enter(move.to);
      renameSync(join(this.dir, move.from), join(this.dir, move.to));
      this.#leave(move.from);
    }
    if (body === undefined) return;
    this.#enter(placed.file);
    writeFileSync(join(this.dir, placed.file), body);
    this.bodies++;
  }

  /** Whether a body is written at `file`. */
  holds(file: string): boolean {
    return existsSync(join(this.dir, file));
  }

  /** The most bodies one folder holds. */
  largestFolder(): number {
    let largest = 0;
    for (const bodies of this.#bodiesIn.values()) largest = Math.max(largest, bodies);
    return largest;
  }

  #enter(file: string): void {
    const folder = dirname(file);
    const bodies = this.#bodiesIn.get(folder);
    if (bodies === undefined) mkdirSync(join(this.dir, folder), { recursive: true });
    this.#bodiesIn.set(folder, (bodies ?? 0) + 1);
  }

  /** A folder its last body leaves goes, and so do the folders above it it empties: a build keeps no empty folder. */
  #leave(file: string): void {
    const folder = dirname(file);
    const bodies = this.#bodiesIn.get(folder)! - 1;
    if (bodies > 0) {
      this.#bodiesIn.set(folder, bodies);
      return;
    }
    this.#bodiesIn.delete(folder);
    for (let at = folder; at !== "."; at = dirname(at)) {
      if (readdirSync(join(this.dir, at)).length > 0) return;
      rmdirSync(join(this.dir, at));
    }
  }
}
