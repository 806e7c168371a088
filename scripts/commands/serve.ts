/** `manifest-resolver serve`: answer the contract locally from a built output directory. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { listeningUrl, serveNode } from "../../edge/adapters/node.ts";
import { evaluate, type Outcome } from "../../core/evaluate/index.ts";
import { BUILD_INFO_PATH, readIndexShard } from "../../edge/records.ts";
import { outputStages } from "../pipeline/index.ts";
import { projectSettings } from "./project-settings.ts";
import { withFileLock } from "../edit/file-lock.ts";
import { displayPath } from "../read/files.ts";
import { lookupPageFiles } from "../lookup-page-files/files.ts";
import { serveLookupPage } from "../lookup-page-files/serve.ts";
import { EXIT_FAILED } from "../cli/command.ts";
import type { serve } from "./serve-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runServe: CommandRun<typeof serve> = async (values) => {
  const dist = displayPath(values.dist);
  const { host, port } = values;
  const uiPort = values["ui-port"];

  // A build killed between its renames may have left the output aside: put it back first.
  if (!existsSync(dist)) {
    const { recoverOutput } = await outputStages();
    for (const line of await withFileLock(resolve(dist), projectSettings().lockWaitMs, () => recoverOutput(dist)))
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
    if (umid !== undefined) console.log(`look one up: ${page}?${new URLSearchParams({ resolver: running.url, umid })}`);
  }
  return stopped;
};

const USABLE: Outcome[] = ["accepted", "accepted-with-warnings", "accepted-partial"];

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
    const shard = readIndexShard(readFileSync(join(dir, name)));
    // A shard the edge cannot read names no sample: the edge answers its UMIDs 500.
    if ("problem" in shard) continue;
    for (const [umid, value] of shard) {
      const entry = value as { file?: unknown; status?: { status?: unknown } } | null;
      if (typeof entry?.file === "string" && entry.status?.status === "active") active.push([umid, entry.file]);
    }
    if (active.length >= SAMPLE_CANDIDATES) break;
  }
  // The most usable: accepted, else with warnings, else partly; else the first.
  let best: { umid: string; rank: number } | undefined;
  for (const [umid, file] of active.slice(0, SAMPLE_CANDIDATES)) {
    const rank = USABLE.indexOf((await evaluate(readFileSync(join(dist, file)))).outcome);
    if (rank === 0) return umid;
    if (rank > 0 && (best === undefined || rank < best.rank)) best = { umid, rank };
  }
  return best?.umid ?? active[0]?.[0];
}
