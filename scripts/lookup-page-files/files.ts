/**
 * The lookup page as static files: index.html, with the default resolver filled in (and, served by `serve` or `dev`,
 * the configured resolver URL that resolver answers for: lookup-page/stand-in.ts), and lookup.js, bundled by esbuild from lookup.ts and the shared modules it imports (ahead
 * of time for the prebuilt CLI, which an installed package runs without esbuild).
 */
import { readFile } from "node:fs/promises";
import type { OutputFile } from "../plan/output-file.ts";
import type { LookupSample } from "./page-meta.ts";
import { LOOKUP_SCRIPT, PREBUILT, TOOL_ROOT, toolAsset, toolFile } from "../runtime/tool-files.ts";

export const LOOKUP_PAGE_MARKER = "index.html";

/**
 * `logKey`: the content's log verifier key ("": none); `samples`: the introduction's, given by `serve` and `dev` only
 * (page-meta.ts).
 */
export async function lookupPageFiles(
  resolverUrl: string,
  standsInFor = "",
  { logKey = "", samples }: { logKey?: string; samples?: readonly LookupSample[] } = {},
): Promise<OutputFile[]> {
  const template = await readFile(toolAsset("lookup-page/index.html"), "utf8");
  // Each value by a function: a replacement string would read `$&`, `$'` and the like in a UMID as patterns.
  const html = template
    .replace('<meta name="manifest-resolver" content="">', () => meta("manifest-resolver", resolverUrl))
    .replace('<meta name="manifest-resolver-stands-in-for" content="">', () =>
      meta("manifest-resolver-stands-in-for", standsInFor),
    )
    .replace('<meta name="manifest-resolver-log-key" content="">', () => meta("manifest-resolver-log-key", logKey))
    .replace('<meta name="manifest-resolver-samples" content="">', () =>
      meta("manifest-resolver-samples", samples === undefined ? "" : JSON.stringify(samples)),
    );
  return [
    { path: "index.html", bytes: new TextEncoder().encode(html) },
    {
      path: "lookup.js",
      bytes: PREBUILT ? await readFile(toolAsset(LOOKUP_SCRIPT)) : (await bundleLookupScript()).bytes,
    },
  ];
}

function meta(name: string, content: string): string {
  return `<meta name="${name}" content="${attribute(content)}">`;
}

function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** lookup.js, bundled from the sources, and the files it was bundled from (relative to the package root). */
export async function bundleLookupScript(): Promise<{ bytes: Uint8Array; inputs: string[] }> {
  // Loaded only here: esbuild, a devDependency, is CommonJS, and every other command starts faster without it.
  const { build } = await import("esbuild");
  const bundle = await build({
    absWorkingDir: TOOL_ROOT,
    entryPoints: [toolFile("lookup-page/lookup.ts")],
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
    logLevel: "silent",
    metafile: true,
  });
  return { bytes: bundle.outputFiles[0]!.contents, inputs: Object.keys(bundle.metafile.inputs) };
}
