/**
 * How a file is named in diagnostics: relative to the working directory, as compilers do.
 * A module of its own so that what needs only this (file-lock.ts, and through it the CLI's
 * entry) does not load the content walker and its packages at start.
 */
import { relative } from "node:path";

export function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}
