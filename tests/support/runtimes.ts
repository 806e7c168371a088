/**
 * The three runtimes the handler ships to, each serving a built output directory over
 * real HTTP: Node (the `serve` command itself), workerd (miniflare, configured from
 * wrangler.jsonc) and Deno (behind the Netlify adapter, with a case-insensitive static
 * layer like Netlify's).
 */
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, ROOT } from "./paths.ts";
import { startPrintingUrl, type Started } from "./processes.ts";

export interface Runtime {
  name: string;
  start(dist: string): Promise<Started>;
}

export const node: Runtime = {
  name: "node (manifest-resolver serve)",
  start: (dist) => startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"]),
};

/** Deno looks for a newer release on start; these machines reach no such server. */
export const DENO_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };

export const deno: Runtime = {
  name: "deno (Netlify edge function)",
  start: (dist) =>
    startPrintingUrl(join(ROOT, "node_modules/.bin/deno"), [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      `--allow-read=${dist}`,
      join(ROOT, "tests/runtimes/netlify-deno.ts"),
      dist,
    ], DENO_ENV),
};

interface WranglerConfig {
  main: string;
  compatibility_date: string;
  assets: { directory: string; binding: string; run_worker_first: boolean; html_handling: "none"; not_found_handling: "none" };
}

/** wrangler.jsonc, whose comments are whole lines. */
export function wranglerConfig(): WranglerConfig {
  const text = readFileSync(join(ROOT, "wrangler.jsonc"), "utf8");
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as WranglerConfig;
}

export const workerd: Runtime = {
  name: "workerd (Cloudflare Worker, miniflare)",
  async start(dist) {
    const config = wranglerConfig();
    const bundle = await build({
      entryPoints: [join(ROOT, config.main)],
      bundle: true,
      format: "esm",
      platform: "neutral",
      write: false,
      logLevel: "silent",
    });
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: config.compatibility_date,
      host: "127.0.0.1",
      port: 0,
      assets: {
        directory: dist,
        binding: config.assets.binding,
        routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
        assetConfig: { html_handling: config.assets.html_handling, not_found_handling: config.assets.not_found_handling },
      },
    });
    const url = await mf.ready;
    return { url: url.origin, urls: [url.origin], stop: () => mf.dispose() };
  },
};

export const RUNTIMES = [node, workerd, deno];
