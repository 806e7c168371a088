/** `manifest-resolver serve`: answer the contract locally from a built output directory. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { listeningUrl, serveNode } from "../../edge/adapters/node.ts";
import type { HomePageOptions } from "../../edge/home-page.ts";
import { evaluate, type Outcome } from "../../core/evaluate/index.ts";
import { BUILD_INFO_PATH, readIndexShard } from "../../edge/records.ts";
import { outputStages } from "../pipeline/index.ts";
import { projectSettings } from "./project-settings.ts";
import { withFileLock } from "../edit/file-lock.ts";
import { displayPath } from "../read/files.ts";
import { lookupPageFiles } from "../lookup-page-files/files.ts";
import { lookupSamples, publishersLog } from "../lookup-page-files/page-meta.ts";
import { defaultContentDir } from "../read/content-root.ts";
import { type PageReloads, serveLookupPage } from "../lookup-page-files/serve.ts";
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
  const served = await startServing({
    dist,
    host,
    port,
    uiPort,
    standsInFor: projectSettings().resolverUrl,
    contentDir: defaultContentDir(),
  });
  if (typeof served === "string") {
    console.error(`manifest-resolver: ${served}`);
    return EXIT_FAILED;
  }
  // Ready for Ctrl+C before saying so: whoever reads the URL may stop us at once.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => served.stop().then(() => resolve(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  printServing(dist, served);
  return stopped;
};

/**
 * Where to look, the lookup page first: the first address a terminal shows is the one people open, and the page is
 * for people, the resolver for programs. Then a link that opens the page on a sample.
 */
export function printServing(dist: string, served: Serving): void {
  if (served.page !== undefined) console.log(`lookup page at ${served.page}`);
  console.log(`serving ${dist}/ at ${served.url}/`);
  // A newcomer's click on it should show a verdict, not a form to fill in.
  if (served.page !== undefined && served.sample !== undefined)
    console.log(`look one up: ${served.page}?${new URLSearchParams({ resolver: served.url, umid: served.sample })}`);
}

/** The resolver and, on `uiPort`, the lookup page asking it: both listening. */
export interface Serving {
  url: string;
  /** The lookup page's address, ending in "/". */
  page: string | undefined;
  /** With the page, the UMID to open it on first (sampleUmid). */
  sample: string | undefined;
  stop(): Promise<void>;
}

/**
 * Serves `dist` on `port`, and the lookup page on `uiPort` if given (`reloads`: told of rebuilds; `standsInFor`: the
 * resolver URL the output was built for, which this server answers in place of; `contentDir`: the content folder whose
 * log's key the page checks with); or why not.
 */
export async function startServing(options: {
  dist: string;
  host: string;
  port: number;
  uiPort: number | undefined;
  reloads?: PageReloads;
  standsInFor: string;
  contentDir: string;
}): Promise<Serving | string> {
  const { dist, host, port, uiPort } = options;
  let running: Awaited<ReturnType<typeof serveNode>>;
  const home: HomePageOptions = {};
  try {
    running = await serveNode({ dist, port, host, home });
  } catch (error) {
    return `cannot listen on ${host}:${port}: ${(error as Error).message}`;
  }
  const servers = [running.server];
  const sample = uiPort === undefined ? undefined : await sampleUmid(dist);
  if (uiPort !== undefined) {
    try {
      const files = await lookupPageFiles(running.url, options.standsInFor, {
        ...(await publishersLog(options.contentDir)),
        samples: lookupSamples(dist, sample),
      });
      servers.push((await serveLookupPage(files, host, uiPort, options.reloads)).server);
    } catch (error) {
      running.server.close();
      running.server.closeAllConnections();
      return `cannot listen on ${host}:${uiPort}: ${(error as Error).message}`;
    }
  }
  const page = servers[1] === undefined ? undefined : `${listeningUrl(servers[1], host)}/`;
  home.lookupPage = page;
  return {
    url: running.url,
    page,
    sample,
    stop: () =>
      new Promise<void>((resolve) => {
        let open = servers.length;
        for (const server of servers) {
          server.close(() => --open === 0 && resolve());
          server.closeAllConnections();
        }
      }),
  };
}

const USABLE: Outcome[] = ["accepted", "accepted-with-warnings", "accepted-partial"];

/** How many published manifests are tried for a sample link: a start-up cost, kept small. */
const SAMPLE_CANDIDATES = 50;

/**
 * A UMID to link the lookup page to: the first active one in index order whose manifest a
 * relying party would accept as it is (the page evaluates at Tier 0), else the first active
 * one; undefined if none is published.
 */
export async function sampleUmid(dist: string): Promise<string | undefined> {
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
  // The most usable: accepted, else with warnings, else partly; else the first. Judged offline: a start-up asks no
  // DID's host, and the page resolves the keyRef when it is asked.
  let best: { umid: string; rank: number } | undefined;
  for (const [umid, file] of active.slice(0, SAMPLE_CANDIDATES)) {
    const body = readBody(join(dist, file));
    // A body gone from the output is no sample: the edge answers its UMID 500.
    if (body === undefined) continue;
    const rank = USABLE.indexOf((await evaluate(body, {}, { offline: true })).outcome);
    if (rank === 0) return umid;
    if (rank > 0 && (best === undefined || rank < best.rank)) best = { umid, rank };
  }
  return best?.umid ?? active[0]?.[0];
}

function readBody(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
