/**
 * Reading a file of a cache folder, which any process of the user's can write, and which a
 * CI cache restores from elsewhere: what is there may be a symbolic link, a FIFO or a
 * device, and a plain read would follow it, block for ever on it, or never end. A cache's
 * file is read only when it is a regular file of at most the size expected, opened without
 * following a link and without blocking.
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { readFully } from "../read/read-fully.ts";

/** Why a cache file was not read: there is none, or what is there is not a cache file. */
export class NotACacheFile extends Error {}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them; throws NotACacheFile for anything else, and
 * the file system's error when it refuses.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openRegularFile(path);
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) throw new NotACacheFile(`larger than ${maxBytes} bytes`);
    return readFully(fd, size);
  } finally {
    closeSync(fd);
  }
}

/**
 * The regular file at `path`, open for reading (the caller closes it); throws NotACacheFile for anything else, and
 * the file system's error when it refuses.
 */
export function openRegularFile(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    // ELOOP: a symbolic link, which O_NOFOLLOW refuses.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ELOOP")
      throw new NotACacheFile(code === "ENOENT" ? "no such file" : "a symbolic link");
    throw error;
  }
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw new NotACacheFile("not a regular file");
  return fd;
}
