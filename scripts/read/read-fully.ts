/** Reading an open file whole, up to a length: one `readSync` may return fewer bytes than asked. */
import { readSync } from "node:fs";

/** Up to `length` bytes of the file open as `fd`, from `position` (its start); fewer where it ends first. */
export function readFully(fd: number, length: number, position = 0): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, bytes, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}
