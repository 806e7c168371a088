/**
 * The status list allocation (`_status/`) is history (issue 37, defect 11): relying parties
 * hold copies of manifests whose `statusRef` names an entry (outside the signature), and
 * read that entry in the list the build derives from the allocation. An entry no UMID
 * holds is published 0x0, "active". So, against the allocation at the base revision:
 * - `history/status-entry-freed`: an allocated index is never freed nor given to another
 *   UMID, which would hand its holder's copies an "active", or another UMID's status;
 * - `history/status-entry-moved`: a UMID keeps its index, which its copies name;
 * - `history/status-entry-unrevoked`: an entry the revision's build served as revoked
 *   stays revoked: reported instead of a freed entry, whatever happened to the manifest's
 *   file (the build serves 0x2 from `_routes.json` alone, so only the allocation can
 *   take it away; an entry whose UMID `_routes.json` un-revokes is history/unrevoked's).
 * A list is one by its file's name (where the build serves it) and its URL (what
 * statusRefs name): one gone, or at another URL, frees all its entries at once.
 */
import { quoted } from "../../core/excerpt.ts";
import { type AllocatedList, STATUS_FOLDER, umidsOf } from "../check/status-allocation.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";

/** The errors of the rules, each placed at the entry now, or at the revision's where there is none now. */
export function statusAllocationProblems(before: ResolverState, now: ResolverState, revision: string): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const entryAt = (list: AllocatedList, k: number) => ({ file: list.file, pointer: `/entries/${list.positions[k]}` });
  const nowLists = new Map(now.allocation.lists.map((list) => [list.listId, list]));
  /** Each list's entries now by index: where in its arrays (and its file) each index is, made once, when asked. */
  const byIndex = new Map<AllocatedList, Map<number, number>>();
  const holdersOf = (list: AllocatedList) => {
    let holders = byIndex.get(list);
    if (holders === undefined) {
      holders = new Map(Array.from(list.indices, (index, k) => [index, k]));
      byIndex.set(list, holders);
    }
    return holders;
  };
  const revoked = (state: ResolverState, umid: string) => state.statuses.get(umid)?.list === "revoked";
  /** Each list's UMIDs, read when asked (the allocation keeps none), once. */
  const umidsRead = new Map<AllocatedList, string[]>();
  const umids = (list: AllocatedList) => {
    const read = umidsRead.get(list) ?? umidsOf(list);
    umidsRead.set(list, read);
    return read;
  };
  for (const was of before.allocation.lists) {
    const is = nowLists.get(was.listId);
    // A file there but unreadable now has its own errors; what it allocates is unknown.
    const name = `${STATUS_FOLDER}/${was.listId}.json`;
    if (is === undefined && now.allocation.files.some((file) => file === name || file.endsWith(`/${name}`))) continue;
    const wasUmids = umids(was);
    const entry = (k: number) =>
      `entry ${was.indices[k]} of list ${was.listId}, allocated to UMID ${quoted(wasUmids[k]!)}`;
    // To the letter: a client holds the list's id to the URL its copies' statusRefs spell (status-list-resolution.ts).
    if (is === undefined || is.url !== was.url) {
      const fate = is === undefined ? "its file is gone" : `its url is ${quoted(is.url)} now`;
      problems.push(
        diagnostic(
          "history/status-entry-freed",
          is === undefined ? { file: was.file } : { file: is.file, pointer: "/url" },
          `list ${was.listId} at ${quoted(was.url)} allocated ${wasUmids.length} entries at ${revision} and ` +
            `${fate}: the statusRefs of every copy of its manifests name it, and would find no entry of theirs; ` +
            `restore the file as it was at ${revision}`,
        ),
      );
      for (let k = 0; k < wasUmids.length; k++)
        if (revoked(before, wasUmids[k]!))
          problems.push(
            diagnostic(
              "history/status-entry-unrevoked",
              entryAt(was, k),
              `${entry(k)}, was served as revoked at ${revision} and ${fate}, so no list would say revoked for ` +
                `the copies that name it; restore the list's file as it was at ${revision}`,
            ),
          );
      continue;
    }
    const holders = holdersOf(is);
    for (let k = 0; k < wasUmids.length; k++) {
      const umid = wasUmids[k]!;
      const index = was.indices[k]!;
      const heldAt = holders.get(index);
      const holder = heldAt === undefined ? undefined : umids(is)[heldAt];
      const moved = now.allocation.entryOf(umid);
      const movedAway = moved !== undefined && (moved.list !== is || moved.index !== index);
      if (movedAway) {
        problems.push(
          diagnostic(
            "history/status-entry-moved",
            entryAt(moved.list, holdersOf(moved.list).get(moved.index)!),
            `UMID ${quoted(umid)} had entry ${index} of list ${was.listId} at ${revision} and has entry ` +
              `${moved.index} of list ${moved.list.listId} now: the copies of its manifest name the entry it had ` +
              `(its statusRef is outside the signature), so they would not read its status; give it back ` +
              `[${index}, ${JSON.stringify(umid)}] in ${is.file}`,
          ),
        );
      }
      if (holder === umid) continue;
      const given = holder === undefined ? "is allocated to no UMID now" : `is allocated to UMID ${quoted(holder)} now`;
      const place = heldAt === undefined ? entryAt(was, k) : entryAt(is, heldAt);
      const served = holder === undefined ? "active (0x0)" : servedAs(now, holder);
      const restore = `put [${index}, ${JSON.stringify(umid)}] back in ${is.file}`;
      let rule: RuleId;
      let message: string;
      if (revoked(before, umid)) {
        rule = "history/status-entry-unrevoked";
        message =
          `${entry(k)}, was served as revoked at ${revision} and ${given}: the list would publish it as ` +
          `${served}, and every copy of the revoked manifest would read so; revocation is permanent ` +
          `(EXT-OPT O2.3), whatever happened to the manifest's file: ${restore}`;
      } else if (holder !== undefined || !movedAway) {
        rule = "history/status-entry-freed";
        message =
          `${entry(k)} at ${revision}, ${given}: an index is never freed nor given to another UMID, or the ` +
          `copies of the manifest that name it would read ${served}; ${restore}`;
      } else continue;
      problems.push(diagnostic(rule, place, message));
    }
  }
  return problems;
}

/** What the list built from `state` says for `umid`'s entry (as scripts/plan/status-lists.ts derives it). */
function servedAs(state: ResolverState, umid: string): string {
  const list = state.statuses.get(umid)?.list;
  if (list === "revoked") return "revoked (0x2)";
  if (!state.published.has(umid)) return "undefined (0x3)";
  return list === "suspended" ? "suspended (0x1)" : "active (0x0)";
}
