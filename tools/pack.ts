/**
 * The packages as `npm publish` would upload them, into `dest`: `npm pack` of what lib/ holds now (its prepack build
 * skipped: the caller has built lib/), and of create-manifest-resolver, bundled here first into one file with no
 * dependency (`npm run pack:create`, which the release runs, packs it alone).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CREATE = join(ROOT, "packages", "create-manifest-resolver");

export interface Packed {
  tarball: string;
  /** Bytes of the tarball, and of what it unpacks to. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export function pack(dest: string, cwd = ROOT): Packed {
  const output = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename, size, unpackedSize, files }] = JSON.parse(output) as [
    Omit<Packed, "tarball"> & { filename: string },
  ];
  return { tarball: join(dest, filename), size, unpackedSize, files };
}

/** create-manifest-resolver, its script bundled into bin/create.js, packed into `dest`. */
export async function packCreate(dest: string): Promise<Packed> {
  await build({
    entryPoints: [join(CREATE, "create.ts")],
    outfile: join(CREATE, "bin", "create.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
  });
  return pack(dest, CREATE);
}

// `npm run pack:create [DEST]`: the release packs the package it publishes so.
if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log((await packCreate(process.argv[2] ?? ROOT)).tarball);
