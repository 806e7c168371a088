/**
 * The status lists' share of a build at scale (issue 27, "Performance": building the lists for 1,000,000 manifests
 * adds at most 5% to a cold build). Every manifest of an M corpus, and every UMID it revokes, is given an entry of a
 * status list, as `sign --status-list` would (in the bench's scratch folder: the corpus is left as it is); then the
 * build's list stage is timed as the build runs it: the allocation read and checked, each list derived from the
 * statuses the build serves (the corpus's _routes.json), encoded, and the route table's files written. The published set is the
 * one the build holds anyway (its UMIDs and issuedAt), made before the clock starts.
 */
import { randomInt } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STATUS_LIST_ENTRIES } from "../core/status-list/bitstring.ts";
import { statusListUrl } from "../core/status-list/list-entry-ref.ts";
import { PublishedManifests } from "../scripts/check/published.ts";
import { checkRoutesText } from "../scripts/check/routes.ts";
import { checkStatusAllocation, STATUS_FOLDER } from "../scripts/check/status-allocation.ts";
import { allocationText } from "../scripts/edit/status-allocation.ts";
import { routeFiles } from "../scripts/plan/routes.ts";
import { wellKnownRoutes } from "../scripts/plan/status-lists.ts";
import { writeFiles } from "../scripts/write/output.ts";
import { schemaValidators } from "../scripts/validate/schema-validator.ts";
import { settingsFromEnv } from "../scripts/config.ts";

const RESOLVER = "https://resolver.example";

/** Milliseconds the list stage of a build of the M-manifest corpus `content` takes; `scratch` is emptied first. */
export async function statusListStage(content: string, umids: readonly string[], scratch: string): Promise<number> {
  rmSync(scratch, { recursive: true, force: true });
  const settings = settingsFromEnv();
  const routesPath = join(content, "_routes.json");
  const routes = checkRoutesText(
    routesPath,
    readFileSync(routesPath, "utf8"),
    schemaValidators(settings.contextUrl, settings.resolverUrl),
  );
  const allocated = [...umids, ...routes.revoked];
  writeAllocation(join(scratch, STATUS_FOLDER), allocated);
  const published = new PublishedManifests();
  const digest = new Uint8Array(32);
  const issuedAt = Date.parse("2026-01-01T00:00:00Z");
  for (const umid of umids) published.add(umid, digest, issuedAt);

  const started = performance.now();
  const statusAllocation = checkStatusAllocation(scratch, RESOLVER);
  if (statusAllocation.diagnostics.length > 0) throw new Error("the bench's allocation does not check");
  const lists = await wellKnownRoutes(
    { published, revoked: routes.revoked, statuses: routes.statuses, statusAllocation },
    settings.statusNextCheck,
    undefined,
    undefined,
    new Date(),
  );
  await writeFiles(scratch, routeFiles(lists));
  return performance.now() - started;
}

/** Lists of STATUS_LIST_ENTRIES entries for `umids`, each at an index drawn at random, as sign allocates them. */
function writeAllocation(folder: string, umids: readonly string[]): void {
  mkdirSync(folder, { recursive: true });
  for (let from = 0, list = 0; from < umids.length; from += STATUS_LIST_ENTRIES, list++) {
    const members = umids.slice(from, from + STATUS_LIST_ENTRIES);
    // A random permutation's first entries: unique indices, spread at random.
    const indices = Array.from({ length: STATUS_LIST_ENTRIES }, (_, i) => i);
    for (let i = 0; i < members.length; i++) {
      const j = i + randomInt(STATUS_LIST_ENTRIES - i);
      [indices[i], indices[j]] = [indices[j]!, indices[i]!];
    }
    const listId = list.toString(16).padStart(16, "0");
    const entries = members.map((umid, i) => [indices[i]!, umid] as const);
    writeFileSync(join(folder, `${listId}.json`), allocationText(statusListUrl(RESOLVER, listId), entries));
  }
}
