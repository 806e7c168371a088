/**
 * Allocating status list entries (issue 27), for `sign --status-list`: each UMID of a run gets an entry in
 * `content/_status/` (scripts/check/status-allocation.ts), or keeps the one it has. An index is drawn at random from
 * a CSPRNG among those its list has not allocated, so that neither its position nor its neighbours tell anything of
 * a manifest (herd privacy: VC Bitstring Status List §6.1), and is never given again, not after a revocation either.
 * When every list under the status base is full, a new one is started, its id random too.
 *
 * All the run's UMIDs are allocated in memory and each changed list written once, atomically and under the
 * allocation's lock, so that two runs at once never hand out one index twice. It is written before any manifest
 * whose statusRef names it: a run killed between leaves an entry no manifest uses, which costs one index.
 */
import { randomBytes, randomInt } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { STATUS_LIST_ENTRIES } from "../../core/status-list/bitstring.ts";
import { listStatusRef, statusListUrl } from "../../core/status-list/list-entry-ref.ts";
import { quoted } from "../../core/excerpt.ts";
import { displayPath } from "../read/display-path.ts";
import { type Diagnostic, diagnostic, hasErrors } from "../report/diagnostics.ts";
import { checkStatusAllocation, STATUS_FOLDER, umidsOf } from "../check/status-allocation.ts";
import { withFileLock } from "./file-lock.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { pathInTheWay } from "./path-in-the-way.ts";

export interface AllocationOptions {
  /** Where the lists are published: a new list's URL lies under it. */
  statusBase: string;
  /** UM_RESOLVER_URL, or "": the allocation is checked against it as `check` does. */
  resolverUrl: string;
  lockWaitMs: number;
  /** Entries a list holds: STATUS_LIST_ENTRIES but in tests, which fill lists faster. */
  capacity?: number;
}

/** Each UMID's statusRef into its list; or what is wrong with the allocation, which is then left as it was. */
export async function allocateStatusEntries(
  contentDir: string,
  umids: readonly string[],
  { statusBase, resolverUrl, lockWaitMs, capacity = STATUS_LIST_ENTRIES }: AllocationOptions,
): Promise<Map<string, string> | { diagnostics: Diagnostic[] }> {
  const folder = join(contentDir, STATUS_FOLDER);
  // A new list lies under the status base, and check holds every list to UM_RESOLVER_URL: not one it would refuse.
  if (resolverUrl !== "" && statusListUrl(statusBase, "") !== statusListUrl(resolverUrl, ""))
    return {
      diagnostics: [
        diagnostic(
          "status-list/url-mismatch",
          { file: displayPath(folder) },
          `the status base ${quoted(statusBase)} is not UM_RESOLVER_URL, ${quoted(resolverUrl)}, where this ` +
            "resolver publishes its lists",
        ),
      ],
    };
  // The lists are written in the content folder only: a _status/ that is a link would take them elsewhere, as a
  // pull request could make it (check refuses the link too).
  const inTheWay = pathInTheWay(contentDir, `${STATUS_FOLDER}/list.json`);
  if (inTheWay?.is === "a symbolic link")
    return {
      diagnostics: [
        diagnostic(
          "content/symlink",
          { file: displayPath(join(contentDir, inTheWay.path)) },
          "is a symbolic link: sign writes the status lists only inside the content folder; make it a folder",
        ),
      ],
    };
  // The lock lies beside the folder, which is made only once the allocation is found sound.
  await mkdir(contentDir, { recursive: true });
  return withFileLock(folder, lockWaitMs, async () => {
    const allocation = checkStatusAllocation(contentDir, resolverUrl);
    if (hasErrors(allocation.diagnostics)) return { diagnostics: allocation.diagnostics };
    await mkdir(folder, { recursive: true });
    const statusRefs = new Map<string, string>();
    /** The lists a new entry may go to, with the indices each has allocated. */
    const open: { listId: string; url: string; used: Set<number>; entries: [number, string][] }[] = [];
    for (const list of allocation.lists)
      if (list.url === statusListUrl(statusBase, list.listId) && list.indices.length < capacity)
        open.push({
          listId: list.listId,
          url: list.url,
          used: new Set(list.indices),
          entries: umidsOf(list).map((umid, i) => [list.indices[i]!, umid]),
        });
    const changed = new Set<(typeof open)[number]>();
    for (const umid of new Set(umids)) {
      const kept = allocation.entryOf(umid);
      if (kept !== undefined) {
        statusRefs.set(umid, listStatusRef(kept.list.url, kept.index));
        continue;
      }
      let list = open.find((l) => l.used.size < capacity);
      if (list === undefined) {
        const listId = randomBytes(8).toString("hex");
        list = { listId, url: statusListUrl(statusBase, listId), used: new Set(), entries: [] };
        open.push(list);
      }
      const index = freeIndex(list.used, capacity);
      list.used.add(index);
      list.entries.push([index, umid]);
      changed.add(list);
      statusRefs.set(umid, listStatusRef(list.url, index));
    }
    for (const list of changed)
      await writeFileAtomically(join(folder, `${list.listId}.json`), allocationText(list.url, list.entries));
    return statusRefs;
  });
}

/** An index `used` does not hold, uniformly at random among those below `capacity` (one is free). */
function freeIndex(used: ReadonlySet<number>, capacity: number): number {
  // Drawing until a free one comes up takes few draws until the list is nearly full; then the free ones are listed.
  for (let tries = 0; tries < 64; tries++) {
    const index = randomInt(capacity);
    if (!used.has(index)) return index;
  }
  const free: number[] = [];
  for (let index = 0; index < capacity; index++) if (!used.has(index)) free.push(index);
  return free[randomInt(free.length)]!;
}

/** A list's file: its entries sorted by index, one a line (so that git merges two runs' entries). */
export function allocationText(url: string, entries: readonly (readonly [number, string])[]): string {
  const lines = [...entries]
    .sort(([a], [b]) => a - b)
    .map(([index, umid]) => `    [${index}, ${JSON.stringify(umid)}]`);
  const body = lines.length === 0 ? "[]" : `[\n${lines.join(",\n")}\n  ]`;
  return `{\n  "url": ${JSON.stringify(url)},\n  "entries": ${body}\n}\n`;
}
