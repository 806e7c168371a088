/**
 * `npm run build:lib` (also `prepack`): the modules others import (package.json `exports`):
 * - `manifest-resolver/evaluate`, lib/evaluate.js from core/evaluate/, and
 *   `manifest-resolver/client`, lib/client.js from core/client/ (the evaluator included):
 *   the relying party's library;
 * - `manifest-resolver/netlify` and `manifest-resolver/cloudflare`, lib/netlify.js and
 *   lib/cloudflare.js from edge/adapters/: the edge handler, which a publisher's edge
 *   function re-exports, so that `npm update` brings its fixes.
 * Each is one ES module bundled by esbuild with nothing left to install (the validators
 * the evaluator runs were generated ahead of time, so no schema compiler comes along);
 * their types are in lib/types/. The bundles target no platform: they use only
 * web-standard APIs, for Node, Deno, workerd and browsers.
 */
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const LIB_DIR = fileURLToPath(new URL("../lib", import.meta.url));
/** Each library: its name under lib/ (and in package.json `exports`), and its entry. */
const ENTRIES = {
  evaluate: fileURLToPath(new URL("../core/evaluate/index.ts", import.meta.url)),
  client: fileURLToPath(new URL("../core/client/index.ts", import.meta.url)),
  netlify: fileURLToPath(new URL("../edge/adapters/netlify/resolver.ts", import.meta.url)),
  cloudflare: fileURLToPath(new URL("../edge/adapters/cloudflare/worker.ts", import.meta.url)),
};
export type LibraryName = keyof typeof ENTRIES;
export const LIBRARY_NAMES = Object.keys(ENTRIES) as LibraryName[];

/** A library bundled as one ES module, minified (as for a browser) or not (as lib/ holds it). */
export async function bundleLibrary(name: LibraryName, minify: boolean): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [ENTRIES[name]],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minify,
    legalComments: minify ? "none" : "eof",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.contents;
}

/** What a browser downloads for a library: bytes minified, and minified then gzipped. */
export async function browserSize(name: LibraryName): Promise<{ minified: number; gzipped: number }> {
  const minified = await bundleLibrary(name, true);
  return { minified: minified.byteLength, gzipped: gzipSync(minified, { level: 9 }).byteLength };
}

export async function buildLibrary(): Promise<void> {
  // Only its own files: lib/cli/ is the prebuilt CLI (build-cli.ts).
  for (const name of [...LIBRARY_NAMES.map((n) => `${n}.js`), "types"])
    rmSync(join(LIB_DIR, name), { recursive: true, force: true });
  mkdirSync(LIB_DIR, { recursive: true });
  for (const name of LIBRARY_NAMES) writeFileSync(join(LIB_DIR, `${name}.js`), await bundleLibrary(name, false));
  await writeTypes(join(LIB_DIR, "types"));
}

/** Declarations of the entries and all they import, by the TypeScript compiler (a devDependency: building the library is a developer's step). */
async function writeTypes(outDir: string): Promise<void> {
  const ts = (await import("typescript")).default;
  const program = ts.createProgram(Object.values(ENTRIES), {
    declaration: true,
    emitDeclarationOnly: true,
    outDir,
    rootDir: fileURLToPath(new URL("..", import.meta.url)),
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
  console.log(`wrote ${[...LIBRARY_NAMES.map((name) => `${name}.js`), "types/"].join(", ")} in ${LIB_DIR}`);
}
