/**
 * `history/cursor-regressed`: a status change must raise the UMID's status cursor. The
 * cursor (EXT-OPT O2.2; core/status/status-document.ts) is when the current status began, and relying
 * parties revalidate with it (O2.1: `If-None-Match`) and weigh a cached status by it
 * against a manifest's `revocationCursor`. The commands date each change after the status
 * it ends; a hand edit of `_routes.json` may not, and then relying parties keep the old
 * status. Statuses are computed as the build computes them (scripts/plan/statuses.ts); a
 * revoked UMID that is no longer revoked is history/unrevoked's business, a new or
 * vanished one has no change to date, and a status kept but re-dated is redating-rule.ts's.
 */
import type { StatusEntry } from "../../edge/records.ts";
import { quoted } from "../../core/excerpt.ts";
import { DEFAULT_NEXT_CHECK, statusCursor } from "../../core/status/status-document.ts";
import { publishedStatus, revokedStatus } from "../plan/statuses.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { placed } from "../read/source.ts";
import type { ResolverState } from "./resolver-state.ts";

/** The errors of the rule, each with the UMID of the manifest file it names (null for `_routes.json`). */
export function cursorProblems(
  before: ResolverState,
  now: ResolverState,
): { umid: string | null; diagnostic: Diagnostic }[] {
  const problems: { umid: string | null; diagnostic: Diagnostic }[] = [];
  // Published at the revision: a UMID revoked there is not (so no un-revocation is reported twice).
  for (const umid of before.published.keys()) {
    const from = servedStatus(before, umid);
    const to = servedStatus(now, umid);
    if (from === undefined || to === undefined || from.status === to.status) continue;
    if (statusCursor(to.updatedAt) > statusCursor(from.updatedAt)) continue;
    const message =
      `UMID ${quoted(umid)} goes from ${from.status} (since ${from.updatedAt}) to ` +
      `${to.status} since ${to.updatedAt}, which is not later: ` +
      `its status cursor (by which relying parties order the statuses they see, ` +
      `EXT-OPT O2.1) would not increase, so they would refuse the change as a ` +
      `rollback; ` +
      `date the change after ${from.updatedAt} (manifest-resolver suspend, reinstate and revoke do)`;
    const entry = now.statuses.get(umid);
    problems.push(
      entry === undefined
        ? { umid, diagnostic: diagnostic("history/cursor-regressed", { file: now.published.get(umid)!.file }, message) }
        : { umid: null, diagnostic: placed(now.routes, `${entry.pointer}/umid`, "history/cursor-regressed", message) },
    );
  }
  return problems;
}

/**
 * The status the build serves for `umid` in `state` (as output.ts and build.ts compute
 * it), or none: neither published nor revoked there.
 */
function servedStatus(state: ResolverState, umid: string): StatusEntry | undefined {
  const route = state.statuses.get(umid);
  if (route?.list === "revoked") return revokedStatus(route, DEFAULT_NEXT_CHECK);
  const manifest = state.published.get(umid);
  return manifest === undefined ? undefined : publishedStatus(manifest.issuedAt, route, DEFAULT_NEXT_CHECK);
}
