/**
 * The modules that code-split bundles load by a dynamic import only for uncommon input, bundled apart: each one file of
 * its own with its own copy of what it imports, beside the bundles that import it (the lookup page's script, and the
 * library: tools/build-library.ts), which must then keep their chunks beside them too.
 *
 * Split by esbuild with the rest, every module such a file shares with the common path would be a chunk of its own, and
 * each chunk costs the common path bytes (gzip compresses each file alone) and a request. The pure-JS crypto fallback
 * would even put the SHA-512 it needs into the chunk of @noble/hashes that the log's proof loads for SHA-256. Apart,
 * the copies cost only the runtimes and manifests that load them. None of these modules holds state the rest reads, nor
 * tells the objects it is given by their class, so two copies of a module cost bytes, not correctness.
 */
import type { BuildOptions, Metafile, Plugin } from "esbuild";
import { basename, join } from "node:path";

/** Each module bundled apart, from the package root. */
const APART = [
  // Loaded only where WebCrypto lacks Ed25519 (core/crypto/runtime-crypto.ts).
  "core/crypto/pure-crypto.ts",
  // Loaded only for a v0.3 manifest (core/evaluate/arrive.ts).
  "core/validate/legacy-v03.ts",
  // Loaded only for a manifest whose status is in a status list, and only with federation (core/client/status-sources.ts).
  "core/client/status-list-resolution.ts",
  "core/client/federation.ts",
  "core/client/discovered-peers.ts",
  // Loaded only by a client given a log key or policy (core/client/resolve.ts): the lookup page without one asks no log.
  "core/client/latest-logged.ts",
];

/** A module's file beside the bundle: its name, in `.js`. */
function apartName(module: string): string {
  return basename(module, ".ts");
}

/** Makes each import of a module bundled apart an external `./<name>.js`, for a bundle built from `root`. */
export function bundledApart(root: string): Plugin {
  const modules = new Map(APART.map((module) => [join(root, module), module]));
  return {
    name: "bundled-apart",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const module = modules.get(join(args.resolveDir, args.path));
        return module === undefined ? undefined : { path: `./${apartName(module)}.js`, external: true };
      });
    },
  };
}

/**
 * Each module bundled apart, into `options.outdir`, with the options (format, target, minify…) of the bundle that
 * imports it: the files, and the metafile, whose outputs' `entryPoint` name their sources.
 */
export async function bundleApart(
  options: BuildOptions & { absWorkingDir: string; outdir: string },
): Promise<{ files: { path: string; contents: Uint8Array }[]; metafile: Metafile }> {
  const { build } = await import("esbuild");
  const result = await build({
    ...options,
    entryPoints: APART.map((module) => ({ in: join(options.absWorkingDir, module), out: apartName(module) })),
    entryNames: "[name]",
    bundle: true,
    // One apart module imports another as the bundles do (a status list's proof, the crypto fallback).
    plugins: [bundledApart(options.absWorkingDir)],
    write: false,
    metafile: true,
  });
  return { files: result.outputFiles, metafile: result.metafile };
}
