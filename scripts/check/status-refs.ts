/**
 * The manifests' statusRefs against the status list allocation (status-allocation.ts), a rule across files, run on
 * the main thread as each manifest's result arrives: a statusRef into a list of this resolver (under
 * UM_RESOLVER_URL's list path, or the URL of a list the content allocates) must name a list the content allocates,
 * an index in it, and the entry allocated to the manifest's own UMID, spelt as the allocation spells it (a list is
 * found however its URL is spelt: status-allocation.ts, listKey). statusRef is outside the signing input, so a
 * manifest pointing at another's entry would borrow its "active" (core/validate/status-ref.ts holds the per-UMID
 * status URL to the same rule). A statusRef into another resolver's list is that resolver's to judge.
 */
import { quoted } from "../../core/excerpt.ts";
import { STATUS_LIST_ENTRIES } from "../../core/status-list/bitstring.ts";
import { listEntryRef, listStatusRef, statusListUrl } from "../../core/status-list/list-entry-ref.ts";
import type { KeptStatusRef } from "../cache/verification-cache.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { holderOf, listKey, type StatusAllocation } from "./status-allocation.ts";

const POINTER = "/signature/statusRef";

/** What is wrong with the statusRef of the manifest in `file` that claims `umid`, if anything. */
export function statusRefProblem(
  allocation: StatusAllocation,
  resolverUrl: string,
  file: string,
  umid: string,
  { ref, line, column }: KeptStatusRef,
): Diagnostic | undefined {
  const problem = (rule: RuleId, message: string) =>
    diagnostic(rule, { file, pointer: POINTER, line, column }, message);
  const hash = ref.indexOf("#");
  const listUrl = hash < 0 ? ref : ref.slice(0, hash);
  const entry = listEntryRef(ref);
  // Found however its URL is spelt: a relying party may read another spelling as the list. (Without lists, no URL is
  // parsed: most statusRefs of a million manifests are status endpoints.)
  const list = allocation.lists.length === 0 ? undefined : allocation.listAt(listUrl);
  if (list === undefined) {
    const ours =
      entry !== undefined &&
      resolverUrl !== "" &&
      listKey(entry.listUrl).startsWith(`${listKey(statusListUrl(resolverUrl, ""))}/`);
    return ours
      ? problem(
          "status-list/unallocated-list",
          `names list ${quoted(entry.listUrl)}, which this resolver serves but content/_status/ does not allocate`,
        )
      : undefined;
  }
  if (entry !== undefined && entry.index >= STATUS_LIST_ENTRIES)
    return problem(
      "status-list/index-out-of-range",
      `index ${entry.index} lies outside its list: 0 to ${STATUS_LIST_ENTRIES - 1}`,
    );
  const own = allocation.entryOf(umid);
  const ownRef = own && listStatusRef(own.list.url, own.index);
  if (ref === ownRef) return undefined;
  if (own?.list === list && entry?.index === own.index)
    return problem(
      "status-list/unallocated-list",
      `names its own entry as ${quoted(ref)}, not as content/_status/ allocates it, ${quoted(ownRef!)}: a relying ` +
        "party compares the list's id with the URL as written",
    );
  const yours = own === undefined ? "" : `; its own is entry ${own.index} of list ${own.list.listId}`;
  if (entry === undefined)
    return problem(
      "status-list/borrowed-index",
      `names list ${list.listId} with ${quoted(ref.slice(listUrl.length))}, not one of its entries as they are ` +
        `written (#<index>, decimal without a leading zero)${yours}`,
    );
  // Looked up only for the message (a scan of the list): a borrowed index is rare.
  const holder = holderOf(list, entry.index);
  return problem(
    "status-list/borrowed-index",
    `names entry ${entry.index} of list ${list.listId}, which is allocated to ` +
      `${holder === undefined ? "no UMID" : `UMID ${quoted(holder)}`}, not to this manifest's ${quoted(umid)}${yours}`,
  );
}
