/**
 * `npm run build:cli` (also run by `npm test`, `npm start` and `prepack`): the
 * CLI bundled ahead of time into lib/cli/, so that a command does not pay for compiling
 * its TypeScript at each start (tsx: ~0.5 s here, before any work). Built, not committed:
 * a committed bundle would go stale at the first edit that forgot to rebuild it, and
 * review would have to read it. bin/manifest-resolver.js runs the bundle only when it is
 * newer than every file in `inputs.json` (sources and bundled packages alike), and the
 * sources through tsx otherwise, so an edit is never run stale.
 *
 * Each command's module is its own chunk (code splitting), loaded when the command runs:
 * `manifest-resolver --help` compiles none of them. The worker threads' entry is a second
 * entry point. Packages are bundled: the installed package has no runtime dependencies.
 * Beside the code go the files it reads (scripts/runtime/tool-files.ts, TOOL_ASSETS), and
 * the lookup page's script and its chunks bundled once here rather than by esbuild at each build.
 */
import { build } from "esbuild";
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleLookupScript } from "../scripts/lookup-page-files/files.ts";
import { LOOKUP_SCRIPTS, PREBUILT_DIR, TOOL_ASSETS, TOOL_ROOT } from "../scripts/runtime/tool-files.ts";

/** The entry points: the CLI (cli.js, which bin/load-cli.js runs), and every module a worker thread runs (see scripts/runtime/worker.ts). */
const ENTRIES = [
  { in: "scripts/commands/main.ts", out: "cli" },
  { in: "scripts/check/manifest-worker.ts", out: "manifest-worker" },
];

export async function buildCli(): Promise<{ files: number; bytes: number }> {
  const staging = join(dirname(PREBUILT_DIR), `.cli-building-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const result = await build({
      absWorkingDir: TOOL_ROOT,
      entryPoints: ENTRIES,
      outdir: staging,
      entryNames: "[name]",
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      minify: true,
      // Never run by the prebuilt CLI, which reads the lookup page's script from its assets.
      external: ["esbuild"],
      // Bundled CommonJS packages call require() for Node's own modules.
      banner: {
        js:
          'import { createRequire as __createRequire } from "node:module"; const require = ' +
          "__createRequire(import.meta.url);",
      },
      metafile: true,
      logLevel: "warning",
    });
    const lookupScript = await bundleLookupScript();
    for (const asset of TOOL_ASSETS) cpSync(join(TOOL_ROOT, asset), join(staging, "assets", asset));
    mkdirSync(join(staging, "assets", LOOKUP_SCRIPTS), { recursive: true });
    for (const file of lookupScript.files)
      writeFileSync(join(staging, "assets", LOOKUP_SCRIPTS, file.path), file.bytes);
    const inputs = [...Object.keys(result.metafile.inputs), ...lookupScript.inputs, ...TOOL_ASSETS].filter(
      (input) => !input.includes(":"),
    );
    writeFileSync(join(staging, "inputs.json"), `${JSON.stringify({ inputs: [...new Set(inputs)] }, null, 1)}\n`);
    // Swapped in whole: a CLI started meanwhile finds the old bundle, or none (and runs the sources).
    const previous = `${PREBUILT_DIR}.previous-${process.pid}`;
    rmSync(previous, { recursive: true, force: true });
    try {
      renameSync(PREBUILT_DIR, previous);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    renameSync(staging, PREBUILT_DIR);
    rmSync(previous, { recursive: true, force: true });
    const outputs = Object.values(result.metafile.outputs);
    return { files: outputs.length, bytes: outputs.reduce((sum, output) => sum + output.bytes, 0) };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, bytes } = await buildCli();
  console.log(
    `wrote ${relative(process.cwd(), PREBUILT_DIR) || "."}/: the prebuilt CLI, ` +
      `${files} files, ${(bytes / 1024).toFixed(0)} KiB`,
  );
}
