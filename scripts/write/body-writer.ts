/**
 * Puts manifest bodies into the staging folder as the check hands them over, where the
 * plan names them (scripts/plan/body-names.ts).
 *
 * Writes synchronously: the main thread has nothing else to do while workers check, and a
 * direct system call is several times cheaper than a round trip through libuv's pool.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BODY_FOLDERS, type Placement } from "../plan/body-names.ts";

export class BodyWriter {
  /** Bytes written so far. */
  bytes = 0;

  constructor(readonly dir: string) {
    for (const folder of BODY_FOLDERS) mkdirSync(join(dir, folder));
  }

  write(placed: Placement, body: Uint8Array): void {
    if (placed.move !== undefined) renameSync(join(this.dir, placed.move.from), join(this.dir, placed.move.to));
    writeFileSync(join(this.dir, placed.file), body);
    this.bytes += body.byteLength;
  }
}
