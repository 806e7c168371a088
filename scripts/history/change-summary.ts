/**
 * What a change does to the resolver, as a Markdown table for a pull request's reviewer
 * (GitHub shows a job's `$GITHUB_STEP_SUMMARY` as GitHub Flavored Markdown): the UMIDs it
 * publishes, changes (other canonical bytes: JCS, RFC 8785, is what the resolver serves),
 * revokes, suspends, reinstates and redirects.
 */
import { printable } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";

/** How many UMIDs each row names; the count says how many there are. */
const SHOWN = 5;

export interface Change {
  /** What happens to the UMIDs: "published", "changed", … */
  row: string;
  umids: string[];
}

/** Every row, in a fixed order, its UMIDs sorted. */
export function changes(before: ResolverState, now: ResolverState): Change[] {
  const status = (state: ResolverState, umid: string) => state.statuses.get(umid)?.list;
  const published = [...now.published];
  const rows: [string, string[]][] = [
    ["published", published.filter(([umid]) => !before.published.has(umid)).map(([umid]) => umid)],
    ["changed", published.filter(([umid, { digest }]) => before.published.has(umid) && before.published.get(umid)!.digest !== digest).map(([umid]) => umid)],
    ["revoked", [...now.statuses.keys()].filter((umid) => status(now, umid) === "revoked" && status(before, umid) !== "revoked")],
    ["suspended", [...now.statuses.keys()].filter((umid) => status(now, umid) === "suspended" && status(before, umid) !== "suspended")],
    ["reinstated", [...before.statuses.keys()].filter((umid) => status(before, umid) === "suspended" && now.published.has(umid) && status(now, umid) !== "suspended")],
    ["redirected", [...now.redirects].filter(([umid, location]) => before.redirects.get(umid) !== location).map(([umid]) => umid)],
  ];
  return rows.map(([row, umids]) => ({ row, umids: umids.sort() }));
}

/** The summary: a heading, what was compared, the table, and a line when nothing changes. `checked`: check's own summary line. */
export function summaryMarkdown(rows: Change[], base: string | undefined, checked: string): string {
  const compared = base === undefined ? "nothing (no --base): everything is new" : codeSpan(base);
  const lines = [
    "### What this change does to the resolver",
    "",
    `Compared with ${compared}. ${printable(checked)}`,
    "",
    "| Change | UMIDs | First UMIDs |",
    "| --- | ---: | --- |",
    ...rows.map(({ row, umids }) => `| ${row} | ${umids.length} | ${umids.slice(0, SHOWN).map(codeSpan).join(", ")}${umids.length > SHOWN ? ", …" : ""} |`),
  ];
  if (rows.every(({ umids }) => umids.length === 0)) lines.push("", "Nothing changes: no UMID is published, changed, revoked, suspended, reinstated or redirected.");
  return lines.join("\n") + "\n";
}

/**
 * `text` as a code span in a table cell: control characters escaped (a line break would end
 * the row), every `|` escaped as `\|` (GFM splits cells before it reads code spans), and
 * fenced by more backticks than it holds in a row (CommonMark), padded with a space where
 * it starts or ends with one (of which one each side is dropped). A `|` after an odd run of
 * backslashes gets one more, or the run would escape itself and end the cell: the cell then
 * shows one backslash too many, the only spelling GFM leaves.
 */
export function codeSpan(text: string): string {
  const escaped = printable(text).replace(/(\\*)\|/g, (_, run: string) => `${run}${run.length % 2 === 1 ? "\\" : ""}\\|`);
  const fence = "`".repeat(Math.max(0, ...[...escaped.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = /^[ `]|[ `]$/.test(escaped) ? " " : "";
  return `${fence}${pad}${escaped}${pad}${fence}`;
}
