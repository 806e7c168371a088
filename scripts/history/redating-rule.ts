/**
 * When a status began is history: relying parties were told it (the status document's
 * `updatedAt` and cursor, EXT-OPT O2.2), so a change must not re-date a status it keeps.
 * - `history/revocation-redated`: a revocation is never undone nor made again (O2.3), so
 *   its `revokedAt` may not move at all.
 * - `history/suspension-redated`, `history/reinstatement-redated`: a suspension lifted and
 *   made again in one change (`reinstate`, then `suspend`) leaves one entry with a later
 *   `suspendedAt`, since the commands date each change after the status it ends; the same
 *   goes for a reinstatement. So a later date is a new status, and only an earlier one a
 *   re-dating.
 * An entry undated at the revision (served as 1970) may be given its date: that is what
 * `routes/undated` asks. An undated entry now is dated 1970 as served, so earlier than any
 * date. A changed status is cursor-rule.ts's business, an un-revocation history/unrevoked's.
 */
import { instant } from "../../core/date-time.ts";
import { DATE_MEMBER, UNDATED, type StatusList } from "../check/routes.ts";
import { placed, placeOf } from "../read/source.ts";
import type { RuleId } from "../../core/rules/index.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";
import { quoted } from "../../core/excerpt.ts";

const RULES: Record<StatusList, { rule: RuleId; why: string }> = {
  revoked: {
    rule: "history/revocation-redated",
    why: "a revocation is never undone nor made again, so its time never moves",
  },
  suspended: {
    rule: "history/suspension-redated",
    why: "a suspension lifted and made again (reinstate, then suspend) begins later, never earlier",
  },
  reinstated: {
    rule: "history/reinstatement-redated",
    why: "a reinstatement made again (suspend, then reinstate) begins later, never earlier",
  },
};

/** The errors of the rules, each placed at the entry in `_routes.json` now. */
export function redatingProblems(before: ResolverState, now: ResolverState): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const [umid, was] of before.statuses) {
    const is = now.statuses.get(umid);
    const from = instant(was.at);
    if (is?.list !== was.list || from === undefined) continue;
    const to = instant(is.at) ?? instant(UNDATED)!;
    if (to === from || (was.list !== "revoked" && to > from)) continue;
    const member = DATE_MEMBER[was.list];
    const { rule, why } = RULES[was.list];
    const moved =
      is.at === undefined ? `has no ${member} now, so it is served as ${UNDATED}` : `has ${member} ${is.at} now`;
    const message =
      `UMID ${quoted(umid)} was ${was.list} at ${was.at} ` +
      `(${placeOf(before.routes, `${was.pointer}/${member}`)}) and ${moved}: ` +
      `when a status began is history, which relying parties were told (its status ` +
      `document's updatedAt and cursor); ${why}; put ${member} back to ${was.at}`;
    problems.push(placed(now.routes, is.at === undefined ? is.pointer : `${is.pointer}/${member}`, rule, message));
  }
  return problems;
}
