/**
 * The three runtimes the handler ships to, each serving a built output directory over
 * real HTTP: Node (the `serve` command itself), workerd (miniflare, configured from
 * wrangler.jsonc) and Deno (behind the Netlify adapter, with a case-insensitive static
 * layer like Netlify's).
 */
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { KV_BINDING } from "../../edge/descriptor.ts";
import { kvKey } from "../../edge/records.ts";
import { readRecords } from "./index.ts";
import { type KvPair, kvPairs } from "./kv-files.ts";
import { CLI, ROOT } from "./paths.ts";
import { startPrintingUrl, type Started } from "./processes.ts";

interface Runtime {
  name: string;
  start(dist: string): Promise<Started>;
}

const node: Runtime = {
  name: "node (manifest-resolver serve)",
  start: (dist) => startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", "0"]),
};

/** Deno looks for a newer release on start; these machines reach no such server. */
export const DENO_ENV = { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };

let denoPath: string | undefined;

/**
 * Deno's own executable. node_modules/.bin/deno is the npm package's Node wrapper when its
 * install script, which links the binary in its place, has not run (package.json denies
 * it), and that wrapper, blocked in spawnSync, never passes a SIGTERM on to the Deno it runs.
 */
function denoExecutable(): string {
  denoPath ??= execFileSync(join(ROOT, "node_modules/.bin/deno"), ["eval", "console.log(Deno.execPath())"], {
    env: DENO_ENV,
    encoding: "utf8",
  }).trim();
  return denoPath;
}

const deno: Runtime = {
  name: "deno (Netlify edge function)",
  start: (dist) => startNetlifyFunction(dist),
};

/**
 * A Netlify edge function under Deno: this repository's adapter, or `project`'s function
 * file, which Deno resolves from that project's package.json and node_modules, as Netlify does.
 */
export function startNetlifyFunction(dist: string, project?: { root: string; functionFile: string }): Promise<Started> {
  return startPrintingUrl(
    denoExecutable(),
    [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      `--allow-read=${[dist, ...(project ? [project.root] : [])].join(",")}`,
      join(ROOT, "tests/runtimes/netlify-deno.ts"),
      dist,
      ...(project ? [join(project.root, project.functionFile)] : []),
    ],
    DENO_ENV,
    1,
    project?.root,
  );
}

interface WranglerConfig {
  name: string;
  main: string;
  compatibility_date: string;
  assets: {
    directory: string;
    binding: string;
    run_worker_first: boolean;
    html_handling: "none";
    not_found_handling: "none";
  };
}

/** A project's wrangler.jsonc (this repository's by default), whose comments are whole lines. */
export function wranglerConfig(root = ROOT): WranglerConfig {
  const text = readFileSync(join(root, "wrangler.jsonc"), "utf8");
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as WranglerConfig;
}

/** A project's Worker as wrangler would bundle it: its `main`, with the packages it imports. */
async function workerScript(root = ROOT): Promise<string> {
  const bundle = await build({
    entryPoints: [join(root, wranglerConfig(root).main)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  return bundle.outputFiles[0]!.text;
}

const workerd: Runtime = {
  name: "workerd (Cloudflare Worker, static assets)",
  start: (dist) => startWorker(dist),
};

/** A project's Worker (this repository's by default) under workerd, over `dist` as its static assets. */
export async function startWorker(dist: string, root = ROOT): Promise<Started> {
  const config = wranglerConfig(root);
  const mf = new Miniflare({
    modules: true,
    script: await workerScript(root),
    compatibilityDate: config.compatibility_date,
    host: "127.0.0.1",
    port: 0,
    assets: {
      directory: dist,
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
      assetConfig: {
        html_handling: config.assets.html_handling,
        not_found_handling: config.assets.not_found_handling,
      },
    },
  });
  const url = await mf.ready;
  return { url: url.origin, urls: [url.origin], stop: () => mf.dispose() };
}

/** How many pairs are put into miniflare's KV namespace at once. */
const KV_PUTS_AT_ONCE = 256;

/**
 * The Worker reading its records from a real (miniflare) KV namespace, loaded from the
 * bulk files the build wrote beside `dist` (`${dist}-kv`). KV holds what the static output
 * holds: a body deleted or altered there after the build is empty or altered here.
 */
const workerdKv: Runtime = {
  name: "workerd (Cloudflare Worker, Workers KV)",
  async start(dist) {
    const mf = new Miniflare({
      modules: true,
      script: await workerScript(),
      compatibilityDate: wranglerConfig().compatibility_date,
      host: "127.0.0.1",
      port: 0,
      kvNamespaces: [KV_BINDING],
    });
    const url = await mf.ready;
    // miniflare's own typing of the namespace does not resolve here; this is its KV API.
    const kv = (await mf.getKVNamespace(KV_BINDING)) as unknown as {
      put(key: string, value: string | ArrayBuffer, options: { metadata?: object }): Promise<void>;
    };
    const records = readRecords(dist);
    const umidOfKey = new Map(
      await Promise.all(Object.keys(records).map(async (umid) => [await kvKey(umid), umid] as const)),
    );
    const put = (pair: KvPair) => {
      const file = records[umidOfKey.get(pair.key)!]?.file;
      const value = pair.base64
        ? new Uint8Array(Buffer.from(pair.value, "base64")).buffer
        : file === undefined
          ? pair.value
          : existsSync(join(dist, file))
            ? readFileSync(join(dist, file), "utf8")
            : "";
      return kv.put(pair.key, value, pair.metadata === undefined ? {} : { metadata: pair.metadata });
    };
    // Thousands of pairs (every shard of the route table, empty ones too): one at a time, each put's round trip
    // through miniflare took most of a minute. A key put twice keeps its last value, as `bulk put` does.
    const pairs = [...new Map(kvPairs(`${dist}-kv`).map((pair) => [pair.key, pair])).values()];
    for (let start = 0; start < pairs.length; start += KV_PUTS_AT_ONCE)
      await Promise.all(pairs.slice(start, start + KV_PUTS_AT_ONCE).map(put));
    return { url: url.origin, urls: [url.origin], stop: () => mf.dispose() };
  },
};

export const RUNTIMES = [node, workerd, workerdKv, deno];
