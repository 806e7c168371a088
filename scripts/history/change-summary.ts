/**
 * What a change does to the resolver, as a Markdown table for a pull request's reviewer
 * (GitHub shows a job's `$GITHUB_STEP_SUMMARY` as GitHub Flavored Markdown): the UMIDs it
 * publishes, changes (other canonical bytes: JCS, RFC 8785, is what the resolver serves),
 * revokes, suspends, reinstates and redirects, and those whose status reason it changes,
 * with each reason old and new (a reason is served in the status document). A signing key
 * pinned anew comes first, as a warning: it decides which signatures are accepted; then a
 * file opted in anew to be published unsigned, as a warning: nothing but its digest vouches
 * for it; then the peers relying parties discover, changed, as a warning: they decide whom
 * those relying parties ask for status.
 */
import { instant } from "../../core/date-time.ts";
import type { StatusList } from "../check/routes.ts";
import { printable } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";
import { keyChanges } from "./key-pin-rule.ts";
import { optInChanges } from "./unsigned-opt-in-rule.ts";
import { discoveryChanges, type DiscoveryChanges } from "./resolvers-rule.ts";
import { excerpt } from "../../core/excerpt.ts";

/** How many UMIDs each row names; the count says how many there are. */
const SHOWN = 5;
/** How many changed reasons are shown, old and new; the row of the table counts them all. */
const REASONS_SHOWN = 20;

interface Change {
  /** What happens to the UMIDs: "published", "changed", … */
  row: string;
  umids: string[];
}

/** A UMID that keeps its status with another reason (none: undefined). */
interface ReasonChange {
  umid: string;
  list: StatusList;
  before: string | undefined;
  now: string | undefined;
}

/** Every row, in a fixed order, its UMIDs sorted; `reasons`: reasonChanges(before, now). */
function changes(before: ResolverState, now: ResolverState, reasons: ReasonChange[]): Change[] {
  const status = (state: ResolverState, umid: string) => state.statuses.get(umid)?.list;
  const began = (state: ResolverState, umid: string) => instant(state.statuses.get(umid)?.at) ?? NaN;
  const published = [...now.published];
  const rows: [string, string[]][] = [
    ["published", published.filter(([umid]) => !before.published.has(umid)).map(([umid]) => umid)],
    [
      "changed",
      published
        .filter(([umid, { digest }]) => before.published.has(umid) && before.published.get(umid)!.digest !== digest)
        .map(([umid]) => umid),
    ],
    [
      "revoked",
      [...now.statuses.keys()].filter((umid) => status(now, umid) === "revoked" && status(before, umid) !== "revoked"),
    ],
    // A suspension that begins later than the one at the base is new: lifted and made again in this change.
    [
      "suspended",
      [...now.statuses.keys()].filter(
        (umid) =>
          status(now, umid) === "suspended" &&
          (status(before, umid) !== "suspended" || began(now, umid) > began(before, umid)),
      ),
    ],
    [
      "reinstated",
      [...before.statuses.keys()].filter(
        (umid) => status(before, umid) === "suspended" && now.published.has(umid) && status(now, umid) !== "suspended",
      ),
    ],
    [
      "redirected",
      [...now.redirects].filter(([umid, location]) => before.redirects.get(umid) !== location).map(([umid]) => umid),
    ],
    ["reason changed", reasons.map(({ umid }) => umid)],
  ];
  return rows.map(([row, umids]) => ({ row, umids: umids.sort() }));
}

/** The UMIDs listed in the same status list in both states, with another reason, sorted. */
function reasonChanges(before: ResolverState, now: ResolverState): ReasonChange[] {
  const changed: ReasonChange[] = [];
  for (const [umid, was] of before.statuses) {
    const is = now.statuses.get(umid);
    if (is?.list === was.list && is.reason !== was.reason)
      changed.push({ umid, list: is.list, before: was.reason, now: is.reason });
  }
  return changed.sort((a, b) => (a.umid < b.umid ? -1 : a.umid > b.umid ? 1 : 0));
}

/**
 * The summary of `now` against `before`: a heading, what was compared, the table, a line
 * when nothing changes, and the reasons that change. `checked`: check's own summary line.
 */
export function summaryMarkdown(
  before: ResolverState,
  now: ResolverState,
  base: string | undefined,
  checked: string,
): string {
  const reasons = reasonChanges(before, now);
  const rows = changes(before, now, reasons);
  const compared = base === undefined ? "nothing (no --base): everything is new" : codeSpan(base);
  const pins = keyChanges(before, now);
  const optIns = optInChanges(before, now);
  const discovery = discoveryChanges(before, now);
  const peerRows = discoveryRows(discovery);
  const lines = [
    "### What this change does to the resolver",
    "",
    // First: a key pinned anew or rotated decides which signatures are accepted from now on.
    ...warningFirst(
      `**Warning: ${pins.length === 1 ? "a signing key is" : `${pins.length} signing keys are`} ` +
        "pinned anew** (history/pin-added, history/pin-changed): every manifest signed under these keyRefs " +
        "is checked against the new key. Make sure it is yours.",
      ["keyRef", "Key before", "Key now"],
      pins.map(({ keyRef, before: old, now: pinned }) => [keyRef, old, pinned]),
    ),
    // Then: an opt-in decides what is published with no signature at all (history/unsigned-opt-in).
    ...warningFirst(
      `**Warning: ${optIns.length === 1 ? "a file is" : `${optIns.length} files are`} opted in anew to be ` +
        "published without a verifiable signature** (history/unsigned-opt-in): nothing but the digest in " +
        "_unsigned.json vouches for them. Make sure their content is what you reviewed.",
      ["File", "Digest before", "Digest now"],
      optIns.map(({ name, before: old, now: digest }) => [name, old, digest]),
    ),
    // Then: the peers decide whom relying parties that discover them ask for status (history/peers-changed).
    ...warningFirst(
      `**Warning: ${discovery.deleted !== undefined ? "_resolvers.json is deleted" : "_resolvers.json changes"}** ` +
        "(history/peers-changed): relying parties that discover peers (--federate-discover) ask each peer it " +
        "names for the status of every manifest. Make sure each is a resolver you trust.",
      ["Peer", "DID before", "DID now"],
      peerRows,
    ),
    `Compared with ${compared}. ${printable(checked)}`,
    "",
    "| Change | UMIDs | First UMIDs |",
    "| --- | ---: | --- |",
    ...rows.map(
      ({ row, umids }) =>
        `| ${row} | ${umids.length} | ` +
        `${umids.slice(0, SHOWN).map(codeSpan).join(", ")}${umids.length > SHOWN ? ", …" : ""} ` +
        `|`,
    ),
  ];
  if (rows.every(({ umids }) => umids.length === 0))
    lines.push("", "Nothing changes: no UMID is published, changed, revoked, suspended, reinstated or redirected.");
  if (reasons.length > 0) {
    const reason = (text: string | undefined) => (text === undefined ? "none" : codeSpan(text));
    lines.push(
      "",
      "#### Reasons changed",
      "",
      "| UMID | Status | Reason before | Reason now |",
      "| --- | --- | --- | --- |",
      ...reasons
        .slice(0, REASONS_SHOWN)
        .map(({ umid, list, before, now }) => `| ${codeSpan(umid)} | ${list} | ${reason(before)} | ${reason(now)} |`),
    );
    if (reasons.length > REASONS_SHOWN) lines.push("", `…and ${reasons.length - REASONS_SHOWN} more.`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `text` as a code span in a table cell: control characters escaped (a line break would end
 * the row), every `|` escaped as `\|` (GFM splits cells before it reads code spans), and
 * fenced by more backticks than it holds in a row (CommonMark), padded with a space where
 * it starts or ends with one (of which one each side is dropped). A `|` after an odd run of
 * backslashes gets one more, or the run would escape itself and end the cell: the cell then
 * shows one backslash too many, the only spelling GFM leaves. A long text is an excerpt.
 */
export function codeSpan(text: string): string {
  // An excerpt: a UMID or reason may be of any length, and GitHub's step summary holds 1 MiB.
  const escaped = printable(excerpt(text)).replace(
    /(\\*)\|/g,
    (_, run: string) => `${run}${run.length % 2 === 1 ? "\\" : ""}\\|`,
  );
  const fence = "`".repeat(Math.max(0, ...[...escaped.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = /^[ `]|[ `]$/.test(escaped) ? " " : "";
  return `${fence}${pad}${escaped}${pad}${fence}`;
}

/**
 * The rows of the discovery document's changes: `resolver` with its DID, then each peer by its url, with its DID
 * before and now; a peer moved to another url is two rows, gone from the one and new at the other.
 */
function discoveryRows({ resolver, peers }: DiscoveryChanges): [string, string | undefined, string | undefined][] {
  const rows: [string, string | undefined, string | undefined][] = [];
  if (resolver !== undefined) rows.push(["resolver", resolver.before, resolver.now]);
  for (const { before, now } of peers) {
    if (before !== undefined && now !== undefined && before.url === now.url) rows.push([now.url, before.did, now.did]);
    else {
      if (before !== undefined) rows.push([before.url, before.did, undefined]);
      if (now !== undefined) rows.push([now.url, undefined, now.did]);
    }
  }
  return rows;
}

/** A warning the summary puts before all else, with a row of what each changed: its name, before and now (or none). */
function warningFirst(
  warning: string,
  headings: [string, string, string],
  rows: [string, string | undefined, string | undefined][],
): string[] {
  if (rows.length === 0) return [];
  const cell = (text: string | undefined) => (text === undefined ? "none" : codeSpan(text));
  return [
    warning,
    "",
    `| ${headings.join(" | ")} |`,
    "| --- | --- | --- |",
    ...rows.map(([name, old, now]) => `| ${codeSpan(name)} | ${cell(old)} | ${cell(now)} |`),
    "",
  ];
}
