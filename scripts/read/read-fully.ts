/** Reading an open file whole, up to a length: one `readSync` may return fewer bytes than asked. */
import { readSync } from "node:fs";

/** Up to `length` bytes of the file open as `fd`, from `position` (its start); fewer where it ends first. */
export function readFully(fd: number, length: number, position = 0): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  return bytes.subarray(0, readInto(fd, bytes, position));
}

/** Fills `target` from the file open as `fd`, from `position`; the number of bytes read, fewer where it ends first. */
export function readInto(fd: number, target: Uint8Array, position: number): number {
  let read = 0;
  while (read < target.byteLength) {
    const n = readSync(fd, target, read, target.byteLength - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}
