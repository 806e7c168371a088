/**
 * The lookup page as static files: index.html, with the default resolver filled in (and, served by `serve` or `dev`,
 * the configured resolver URL that resolver answers for: lookup-page/stand-in.ts), and lookup.js, bundled by esbuild from lookup.ts and the shared modules it imports (ahead
 * of time for the prebuilt CLI, which an installed package runs without esbuild), with the modules it loads by a dynamic
 * import only where needed beside it, bundled apart (bundled-apart.ts: status lists, federation, the v0.3 validator, the
 * pure-JS crypto fallback).
 */
import type { Metafile } from "esbuild";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { OutputFile } from "../plan/output-file.ts";
import type { LookupSample } from "./page-meta.ts";
import { bundleApart, bundledApart } from "./bundled-apart.ts";
import { LOOKUP_SCRIPTS, PREBUILT, TOOL_ROOT, toolAsset, toolFile } from "../runtime/tool-files.ts";

export const LOOKUP_PAGE_MARKER = "index.html";

/**
 * `logKey` and `logPolicy`: the content's log verifier key and witness policy ("": none; page-meta.ts's
 * publishersLog); `samples`: the introduction's, given by `serve` and `dev` only (page-meta.ts).
 */
export async function lookupPageFiles(
  resolverUrl: string,
  standsInFor = "",
  {
    logKey = "",
    logPolicy = "",
    samples,
  }: { logKey?: string; logPolicy?: string; samples?: readonly LookupSample[] } = {},
): Promise<OutputFile[]> {
  const template = await readFile(toolAsset("lookup-page/index.html"), "utf8");
  // Each value by a function: a replacement string would read `$&`, `$'` and the like in a UMID as patterns.
  const html = template
    .replace('<meta name="manifest-resolver" content="">', () => meta("manifest-resolver", resolverUrl))
    .replace('<meta name="manifest-resolver-stands-in-for" content="">', () =>
      meta("manifest-resolver-stands-in-for", standsInFor),
    )
    .replace('<meta name="manifest-resolver-log-key" content="">', () => meta("manifest-resolver-log-key", logKey))
    .replace('<meta name="manifest-resolver-log-policy" content="">', () =>
      meta("manifest-resolver-log-policy", logPolicy),
    )
    .replace('<meta name="manifest-resolver-samples" content="">', () =>
      meta("manifest-resolver-samples", samples === undefined ? "" : JSON.stringify(samples)),
    );
  return [
    { path: "index.html", bytes: new TextEncoder().encode(html) },
    ...(PREBUILT ? await prebuiltLookupScripts() : (await bundleLookupScript()).files),
  ];
}

function meta(name: string, content: string): string {
  return `<meta name="${name}" content="${attribute(content)}">`;
}

/** The prebuilt CLI's lookup.js and its chunks (tools/build-cli.ts). */
async function prebuiltLookupScripts(): Promise<OutputFile[]> {
  const dir = toolAsset(LOOKUP_SCRIPTS);
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (path) => ({ path, bytes: await readFile(join(dir, path)) })));
}

function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/**
 * lookup.js and the chunks it loads, bundled from the sources, by their paths in the page (the metafile's too), and the
 * files they were bundled from (relative to the package root).
 */
export async function bundleLookupScript(): Promise<{ files: OutputFile[]; inputs: string[]; metafile: Metafile }> {
  // Loaded only here: esbuild, a devDependency, is CommonJS, and every other command starts faster without it.
  const { build } = await import("esbuild");
  const options = {
    absWorkingDir: TOOL_ROOT,
    // Nothing is written: the output's paths are then the page's, from the root.
    outdir: TOOL_ROOT,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  } as const;
  const bundle = await build({
    ...options,
    entryPoints: [{ in: toolFile("lookup-page/lookup.ts"), out: "lookup" }],
    // One file and those bundled apart (the log's proof among them, loaded only with a log key), not split: a chunk
    // would be one more request and less gzip context.
    bundle: true,
    plugins: [bundledApart(TOOL_ROOT)],
    write: false,
    metafile: true,
  });
  const apart = await bundleApart(options);
  const metafile = {
    inputs: { ...bundle.metafile.inputs, ...apart.metafile.inputs },
    outputs: { ...bundle.metafile.outputs, ...apart.metafile.outputs },
  };
  return {
    files: [...bundle.outputFiles, ...apart.files].map((file) => ({
      path: relative(TOOL_ROOT, file.path),
      bytes: file.contents,
    })),
    inputs: Object.keys(metafile.inputs),
    metafile,
  };
}
