/**
 * The witness's Cloudflare Worker under workerd (miniflare), over real HTTP: bundled as
 * wrangler bundles a user's worker, a file that re-exports the default and WitnessLog from
 * `manifest-resolver/cloudflare-witness` (lib/, which `npm run build:lib` writes and `npm
 * test` builds first), its state in a SQLite-backed Durable Object namespace, as in
 * docs/hosts.md's wrangler.toml. With `persistDir`, the objects' storage is kept there, so
 * that a witness started again over it is the same witness.
 */
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { ROOT } from "./paths.ts";
import { wranglerConfig } from "./runtimes.ts";

export interface WorkerWitnessOptions {
  /** WITNESS_NAME: the cosigner key's name. */
  name: string;
  /** WITNESS_KEY: the Ed25519 private key, PKCS #8 PEM. */
  keyPem: string;
  /** WITNESS_LOGS: `log <vkey> [<url>]` lines. */
  logsText: string;
  persistDir?: string;
}

export interface WorkerWitness {
  /** The witness's origin: its submission and monitoring prefix. */
  url: string;
  close(): Promise<void>;
  /** What the Worker logged so far, each line parsed: one JSON event per request. */
  events(): Record<string, unknown>[];
}

let script: Promise<string> | undefined;

/** A user's worker file, bundled once for every witness a test process starts. */
function workerScript(): Promise<string> {
  script ??= build({
    stdin: {
      contents: 'export { default, WitnessLog } from "manifest-resolver/cloudflare-witness";\n',
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  }).then((bundle) => bundle.outputFiles[0]!.text);
  return script;
}

export async function startWorkerWitness(options: WorkerWitnessOptions): Promise<WorkerWitness> {
  const logged: string[] = [];
  const mf = new Miniflare({
    modules: true,
    script: await workerScript(),
    compatibilityDate: wranglerConfig().compatibility_date,
    host: "127.0.0.1",
    port: 0,
    bindings: { WITNESS_NAME: options.name, WITNESS_KEY: options.keyPem, WITNESS_LOGS: options.logsText },
    durableObjects: { WITNESS_STATE: { className: "WitnessLog", useSQLite: true } },
    ...(options.persistDir !== undefined && { durableObjectsPersist: options.persistDir }),
    structuredWorkerdLogs: true,
    handleStructuredLogs: ({ message }: { message: string }) => {
      logged.push(message);
    },
  });
  const url = await mf.ready;
  return {
    url: url.origin,
    close: () => mf.dispose(),
    events: () => logged.flatMap((message) => message.split("\n")).flatMap((line) => parsedEvent(line)),
  };
}

function parsedEvent(line: string): Record<string, unknown>[] {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? [value as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}
