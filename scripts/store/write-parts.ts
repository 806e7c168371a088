/**
 * Writing many buffers to a file in one system call (`writev`), rather than copying them into one buffer first: a
 * build's blob store and its Workers KV files gather thousands of bodies a write, and joining them cost more than
 * writing them (docs/benchmarks.md).
 */
import { writevSync } from "node:fs";

/** Writes `parts`, in order, at `fd`'s position; throws where not every byte was written. */
export function writeParts(fd: number, parts: readonly Uint8Array[]): void {
  let expected = 0;
  for (const part of parts) expected += part.byteLength;
  // libuv writes every buffer of a synchronous write, in as many calls as it takes, or fails: a short count would
  // be a file cut short without an error, so it is one.
  const written = writevSync(fd, parts as Uint8Array[]);
  if (written !== expected) throw new Error(`wrote ${written} of ${expected} bytes`);
}
