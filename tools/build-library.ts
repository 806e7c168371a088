/**
 * `npm run build:lib` (also `prepack`): the modules others import (package.json `exports`):
 * - `manifest-resolver/evaluate`, lib/evaluate.js from core/evaluate/, and
 *   `manifest-resolver/client`, lib/client.js from core/client/ (the evaluator included):
 *   the relying party's library;
 * - `manifest-resolver/netlify` and `manifest-resolver/cloudflare`, lib/netlify.js and
 *   lib/cloudflare.js from edge/adapters/: the edge handler, which a publisher's edge
 *   function re-exports, so that `npm update` brings its fixes;
 * - `manifest-resolver/cloudflare-witness`, lib/cloudflare-witness.js: the witness as a
 *   Worker and its Durable Object class, which a witness's worker re-exports alike.
 * Each is an ES module bundled by esbuild with nothing left to install (the validators
 * the evaluator runs were generated ahead of time, so no schema compiler comes along),
 * code-split: what they share, and what a common v0.4 lookup does not need and is loaded
 * by a dynamic import only when needed, is in files beside them (lib/<module>-<hash>.js,
 * and lib/pure-crypto.js and lib/legacy-v03.js, bundled apart) (`npm run size`, tools/bundle-size.ts, weighs both); their types are
 * in lib/types/. The bundles target no platform: they use only
 * web-standard APIs, for Node, Deno, workerd and browsers.
 */
import { build, type Metafile } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleApart, bundledApart } from "../scripts/lookup-page-files/bundled-apart.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const LIB_DIR = join(ROOT, "lib");
/** Each library: its name under lib/ (and in package.json `exports`), and its entry. */
const ENTRIES = {
  evaluate: fileURLToPath(new URL("../core/evaluate/index.ts", import.meta.url)),
  client: fileURLToPath(new URL("../core/client/index.ts", import.meta.url)),
  netlify: fileURLToPath(new URL("../edge/adapters/netlify/resolver.ts", import.meta.url)),
  cloudflare: fileURLToPath(new URL("../edge/adapters/cloudflare/worker.ts", import.meta.url)),
  "cloudflare-witness": fileURLToPath(new URL("../edge/adapters/cloudflare/witness/worker.ts", import.meta.url)),
};
export type LibraryName = keyof typeof ENTRIES;
export const LIBRARY_NAMES = Object.keys(ENTRIES) as LibraryName[];

/**
 * `names`' libraries bundled together as ES modules, minified (as for a browser) or not (as
 * lib/ holds them), code-split: each library's entry, the chunks they share, and the chunks
 * of what is loaded by a dynamic import only when needed (the v0.3 validator, status lists,
 * federation, the log's proof, the pure-JS Ed25519). Every path is from the repository
 * root (lib/…), in the files as in the metafile.
 */
export async function bundleLibraries(names: readonly LibraryName[], minify: boolean): Promise<Bundle> {
  const options = {
    absWorkingDir: ROOT,
    outdir: LIB_DIR,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minify,
    legalComments: minify ? "none" : "eof",
    logLevel: "silent",
  } as const;
  const result = await build({
    ...options,
    entryPoints: names.map((name) => ({ in: ENTRIES[name], out: name })),
    entryNames: "[name]",
    // Beside the entries, not in a folder of their own: a module bundled apart is imported as `./<name>.js` from
    // whichever file holds its importer, an entry or a chunk (bundled-apart.ts).
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    plugins: [bundledApart(ROOT)],
    write: false,
    metafile: true,
  });
  const apart = await bundleApart(options);
  return {
    files: [...result.outputFiles, ...apart.files].map((file) => ({
      path: relative(ROOT, file.path),
      bytes: file.contents,
    })),
    metafile: {
      inputs: { ...result.metafile.inputs, ...apart.metafile.inputs },
      outputs: { ...result.metafile.outputs, ...apart.metafile.outputs },
    },
  };
}

/** Output files by their paths, which the metafile's outputs are keyed by. */
export interface Bundle {
  files: { path: string; bytes: Uint8Array }[];
  metafile: Metafile;
}

/** The path of `library`'s entry in its bundle. */
export function libraryEntry(library: LibraryName): string {
  return relative(ROOT, join(LIB_DIR, `${library}.js`));
}

export async function buildLibrary(): Promise<void> {
  // Only its own files: lib/cli/ is the prebuilt CLI (build-cli.ts).
  mkdirSync(LIB_DIR, { recursive: true });
  for (const name of readdirSync(LIB_DIR))
    if (name.endsWith(".js") || name === "types") rmSync(join(LIB_DIR, name), { recursive: true, force: true });
  const { files } = await bundleLibraries(LIBRARY_NAMES, false);
  for (const file of files) writeFileSync(join(ROOT, file.path), file.bytes);
  await writeTypes(join(LIB_DIR, "types"));
}

/** Declarations of the entries and all they import, by the TypeScript compiler (a devDependency: building the library is a developer's step). */
async function writeTypes(outDir: string): Promise<void> {
  const ts = (await import("typescript")).default;
  const program = ts.createProgram(Object.values(ENTRIES), {
    declaration: true,
    emitDeclarationOnly: true,
    outDir,
    rootDir: ROOT,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    strict: true,
    skipLibCheck: true,
    lib: ["lib.es2024.d.ts"],
    types: [],
  });
  const { diagnostics } = program.emit();
  if (diagnostics.length > 0)
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => process.cwd(),
        getNewLine: () => "\n",
      }),
    );
  // Declarations keep the `.ts` of our imports; a consumer resolves `.js` to the `.d.ts` beside it.
  for (const name of readdirSync(outDir, { recursive: true })
    .map(String)
    .filter((n) => n.endsWith(".d.ts"))) {
    const path = join(outDir, name);
    writeFileSync(path, readFileSync(path, "utf8").replace(/(from\s+["']\.{1,2}\/[^"']*)\.ts(["'])/g, "$1.js$2"));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildLibrary();
  console.log(
    `wrote ${[...LIBRARY_NAMES.map((name) => `${name}.js`), "their chunks", "types/"].join(", ")} in ${LIB_DIR}`,
  );
}
