/**
 * The package as `npm publish` would upload it: `npm pack` of what lib/ holds now (its
 * prepack build skipped: the caller has built lib/), into `dest`.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Packed {
  tarball: string;
  /** Bytes of the tarball, and of what it unpacks to. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export function pack(dest: string): Packed {
  const output = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename, size, unpackedSize, files }] = JSON.parse(output) as [
    Omit<Packed, "tarball"> & { filename: string },
  ];
  return { tarball: join(dest, filename), size, unpackedSize, files };
}
