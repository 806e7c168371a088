/**
 * The lookup page as static files: index.html, with the default resolver filled in, and
 * lookup.js, bundled by esbuild from lookup.ts and the shared modules it imports.
 */
import { readFile } from "node:fs/promises";
import type { OutputFile } from "../plan/output-file.ts";
import { toolFile } from "../runtime/tool-files.ts";

export const LOOKUP_PAGE_MARKER = "index.html";

export async function lookupPageFiles(resolverUrl: string): Promise<OutputFile[]> {
  const template = await readFile(toolFile("scripts/lookup-page/index.html"), "utf8");
  const attribute = resolverUrl.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  const html = template.replace(
    '<meta name="manifest-resolver" content="">',
    `<meta name="manifest-resolver" content="${attribute}">`,
  );
  // Loaded only here: esbuild's API is CommonJS, and every other command starts faster without it.
  const { build } = await import("esbuild");
  const bundle = await build({
    entryPoints: [toolFile("scripts/lookup-page/lookup.ts")],
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  return [
    { path: "index.html", bytes: new TextEncoder().encode(html) },
    { path: "lookup.js", bytes: bundle.outputFiles[0]!.contents },
  ];
}
