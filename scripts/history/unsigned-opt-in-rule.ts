/**
 * `_unsigned.json` is history too (issue 37, section D): each entry lets one file be
 * published with no verifiable signature, its canonical digest all that vouches for it.
 * So, against the revision, `history/unsigned-opt-in` (a warning): an entry that was not
 * there, or that covers other bytes now, is allowed but never silent; the pull request
 * summary lists it first, with the key rotations. An entry removed, or the file deleted,
 * only makes the check stricter, and is not reported. A file unreadable now has its own
 * errors; one unreadable at the revision opted nothing in there, so every entry now is new.
 */
import { quoted } from "../../core/excerpt.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";

/** An entry of `_unsigned.json` now that is not the same at the revision. */
interface OptInChange {
  /** The file's path below the content root, as the entry writes it. */
  name: string;
  /** The digest the entry had at the revision; undefined when there was none. */
  before: string | undefined;
  now: string;
  line: number;
  column: number;
}

/** The entries of `now`'s `_unsigned.json` that `before`'s did not have with the same digest, in `now`'s order. */
export function optInChanges(before: ResolverState, now: ResolverState): OptInChange[] {
  const optedIn = now.optedIn;
  if (optedIn === undefined || optedIn.unreadable === true) return [];
  const was = before.optedIn?.entries;
  const changes: OptInChange[] = [];
  for (const [name, { digest, line, column }] of optedIn.entries) {
    const old = was?.get(name)?.digest;
    if (old !== digest) changes.push({ name, before: old, now: digest, line, column });
  }
  return changes;
}

/** The warnings of the rule, each at its entry of `_unsigned.json` now. */
export function unsignedOptInProblems(before: ResolverState, now: ResolverState, revision: string): Diagnostic[] {
  const file = now.optedIn?.file ?? "";
  return optInChanges(before, now).map(({ name, before: old, now: digest, line, column }) =>
    diagnostic(
      "history/unsigned-opt-in",
      { file, pointer: `/${escapePointerToken(name)}`, line, column },
      `${quoted(name)} is opted in to be published without a verifiable signature, ` +
        (old === undefined
          ? `its content ${digest}, and was not at ${revision}`
          : `its content ${digest} now, ${old} at ${revision}`) +
        `: nothing but this entry vouches for the file, so make sure its content is what you reviewed`,
    ),
  );
}
