/**
 * The tool's own files, wherever its code runs from: its TypeScript sources (through tsx),
 * or the prebuilt CLI that tools/build-cli.ts bundles into lib/cli/, which bin/manifest-resolver.js
 * runs when it is newer than every file it was built from. A bundled module's
 * `import.meta.url` is its chunk's, so paths are taken from the package root instead: the
 * nearest folder above this code that holds a package.json.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);

/** Whether this is the prebuilt CLI: the sources are `.ts`, the bundle's chunks `.js`. */
export const PREBUILT = here.endsWith(".js");

export const TOOL_ROOT = packageRoot(dirname(here));

/** Where tools/build-cli.ts writes the prebuilt CLI. */
export const PREBUILT_DIR = join(TOOL_ROOT, "lib", "cli");

/** A file of the package, by its path from the package root. */
export function toolFile(path: string): string {
  return join(TOOL_ROOT, path);
}

/**
 * The files other than code that the CLI reads at run time, by their paths in this
 * repository. The prebuilt CLI carries copies under lib/cli/assets/ (tools/build-cli.ts):
 * an installed package ships no sources.
 */
export const TOOL_ASSETS = [
  "lookup-page/index.html",
  ".github/workflows/manifests-pull-request.yml",
  ".github/workflows/manifests-main.yml",
] as const;

export type ToolAsset = (typeof TOOL_ASSETS)[number] | typeof LOOKUP_SCRIPTS;

/**
 * The folder of the lookup page's script, lookup.js bundled from lookup.ts, and its chunks: by tools/build-cli.ts into
 * the assets, else at each build.
 */
export const LOOKUP_SCRIPTS = "lookup-page/scripts";

/** Where the running CLI reads an asset: the prebuilt CLI's copy, or this repository's file. */
export function toolAsset(path: ToolAsset): string {
  return PREBUILT ? join(PREBUILT_DIR, "assets", path) : join(TOOL_ROOT, path);
}

/** What the tool's package.json says of it: its version, and its home page (where docs/rules.md is). */
export function toolPackage(): { version: string; homepage: string } {
  return JSON.parse(readFileSync(toolFile("package.json"), "utf8"));
}

function packageRoot(from: string): string {
  for (let at = from; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (at === dirname(at)) throw new Error(`no package.json above ${from}`);
  }
}
