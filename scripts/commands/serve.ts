/** `manifest-resolver serve`: answer the contract locally from a built output directory. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { listeningUrl, serveNode } from "../../edge/adapters/node.ts";
import { evaluate } from "../../core/evaluate/index.ts";
import { BUILD_INFO_PATH, type IndexShard } from "../../edge/records.ts";
import { recoverOutput } from "../write/output.ts";
import { settingsFromEnv } from "../config.ts";
import { projectRoot } from "../read/content-root.ts";
import { withFileLock } from "../edit/file-lock.ts";
import { displayPath } from "../read/files.ts";
import { lookupPageFiles } from "../lookup-page/files.ts";
import { serveLookupPage } from "../lookup-page/serve.ts";
import { EXIT_FAILED, stringOption, UsageError, type Command, type OptionValues } from "./command.ts";

export const serve: Command = {
  name: "serve",
  help: `Usage: manifest-resolver serve [--dist DIR] [--port N] [--host H] [--ui-port N]

Serves the output of 'manifest-resolver build' through the same handler that runs on
Netlify and Cloudflare, and prints its URL. A rebuild is picked up without a restart.
Stop it with Ctrl+C. An output left aside by a build killed mid-swap is put back first.

Options:
  --dist DIR   built output directory (default: the repository's dist/)
  --port N     TCP port, 0 for any free port (default: 8787)
  --host H     address to listen on (default: 127.0.0.1)
  --ui-port N  also serve the lookup page on this port (another origin), asking this resolver

Exit status: 0 stopped, 1 cannot serve (no build output, port in use), 2 usage error.

Example:
  manifest-resolver serve --dist dist --port 8787 --ui-port 8788`,
  options: {
    dist: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "ui-port": { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const dist = displayPath(stringOption(values, "dist", join(projectRoot(), "dist")));
    const host = stringOption(values, "host", "127.0.0.1");
    const port = portOption(values, "port", "8787")!;
    const uiPort = portOption(values, "ui-port", undefined);

    // A build killed between its renames may have left the output aside: put it back first.
    if (!existsSync(dist)) {
      for (const line of await withFileLock(resolve(dist), settingsFromEnv().lockWaitMs, () => recoverOutput(dist)))
        console.error(line);
    }
    try {
      await access(join(dist, BUILD_INFO_PATH));
    } catch {
      console.error(`manifest-resolver: ${join(dist, BUILD_INFO_PATH)} not found: run 'manifest-resolver build' first`);
      return EXIT_FAILED;
    }
    let running: Awaited<ReturnType<typeof serveNode>>;
    try {
      running = await serveNode({ dist, port, host });
    } catch (error) {
      console.error(`manifest-resolver: cannot listen on ${host}:${port}: ${(error as Error).message}`);
      return EXIT_FAILED;
    }
    const servers = [running.server];
    if (uiPort !== undefined) {
      try {
        servers.push((await serveLookupPage(await lookupPageFiles(running.url), host, uiPort)).server);
      } catch (error) {
        console.error(`manifest-resolver: cannot listen on ${host}:${uiPort}: ${(error as Error).message}`);
        running.server.close();
        running.server.closeAllConnections();
        return EXIT_FAILED;
      }
    }
    // Ready for Ctrl+C before saying so: whoever reads the URL may stop us at once.
    const stopped = new Promise<number>((resolve) => {
      const stop = () => {
        let open = servers.length;
        for (const server of servers) {
          server.close(() => --open === 0 && resolve(0));
          server.closeAllConnections();
        }
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    console.log(`serving ${dist}/ at ${running.url}/`);
    if (servers[1] !== undefined) {
      const page = `${listeningUrl(servers[1], host)}/`;
      console.log(`lookup page at ${page}`);
      // The first click of a newcomer should show a verdict, not a form to fill in.
      const umid = await sampleUmid(dist);
      if (umid !== undefined)
        console.log(`look one up: ${page}?${new URLSearchParams({ resolver: running.url, umid })}`);
    }
    return stopped;
  },
};

/** How many published manifests are tried for a sample link: a start-up cost, kept small. */
const SAMPLE_CANDIDATES = 50;

/**
 * A UMID to link the lookup page to: the first active one in index order whose manifest a
 * relying party would accept as it is (the page evaluates at Tier 0), else the first active
 * one; undefined if none is published.
 */
async function sampleUmid(dist: string): Promise<string | undefined> {
  const dir = join(dist, "index");
  const active: [string, string][] = [];
  for (const name of readdirSync(dir).sort()) {
    const shard = JSON.parse(readFileSync(join(dir, name), "utf8")) as IndexShard;
    for (const [umid, entry] of Object.entries(shard.records))
      if ("file" in entry && entry.status.status === "active") active.push([umid, entry.file]);
    if (active.length >= SAMPLE_CANDIDATES) break;
  }
  for (const [umid, file] of active.slice(0, SAMPLE_CANDIDATES)) {
    if ((await evaluate(readFileSync(join(dist, file)))).outcome === "accepted") return umid;
  }
  return active[0]?.[0];
}

function portOption(values: OptionValues, name: string, fallback: string | undefined): number | undefined {
  const text = values[name];
  if (typeof text !== "string") return fallback === undefined ? undefined : Number(fallback);
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`--${name} must be a whole number from 0 to 65535, not '${text}'`);
  return port;
}
