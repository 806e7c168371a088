/**
 * `../shared` holds the project's test data (JCS and Ed25519 vectors, the conformance
 * suite). A fresh clone of the repository has none: tests that need it skip, saying why.
 */
import { existsSync } from "node:fs";
import { SHARED } from "./paths.ts";

/** The `skip` option for a test that reads `../shared/<path>`: false when it is there. */
export function skipWithoutShared(path: string): string | false {
  return existsSync(SHARED + path) ? false : `../shared/${path} is absent (it sits beside the repository in CI only)`;
}

export const sharedPath = (path: string) => SHARED + path;
