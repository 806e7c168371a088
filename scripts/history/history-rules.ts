/**
 * What a change must not do to what the resolver already answered (issue 11, "history a
 * pull request cannot rewrite"): un-revoke a UMID, since revocation is permanent (EXT-OPT
 * O2.3), or drop a UMID it served or redirected without revoking or redirecting it, which
 * would silently turn it into a 404 for everyone who holds a link to it; or change a
 * status without raising its cursor (EXT-OPT O2.1, O2.2: cursor-rule.ts), or re-date one
 * it keeps (redating-rule.ts); or free, move or un-revoke a status list entry
 * (status-allocation-rule.ts), or unpin a key manifests were signed under
 * (key-pin-rule.ts). What it may do, but never silently: pin another key (key-pin-rule.ts),
 * opt a file in to be published unsigned (unsigned-opt-in-rule.ts), or change the peers
 * relying parties discover (resolvers-rule.ts).
 */
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { quoted } from "../../core/excerpt.ts";
import { placed, placeOf } from "../read/source.ts";
import { cursorProblems } from "./cursor-rule.ts";
import { redatingProblems } from "./redating-rule.ts";
import { keyPinProblems } from "./key-pin-rule.ts";
import { unsignedOptInProblems } from "./unsigned-opt-in-rule.ts";
import { resolversProblems } from "./resolvers-rule.ts";
import { statusAllocationProblems } from "./status-allocation-rule.ts";
import type { ResolverState } from "./resolver-state.ts";

/**
 * A file the rules name (one at the revision, `content/x.json@REV`, or `_routes.json` now), with what they found
 * there.
 */
export interface HistoryFinding {
  file: string;
  umid: string | null;
  diagnostics: Diagnostic[];
}

/**
 * The problems of `now` against `before` (the content at `revision`); none of those that
 * read statuses while `_routes.json` now is unreadable.
 */
export function historyProblems(before: ResolverState, now: ResolverState, revision: string): HistoryFinding[] {
  const findings = new Map<string, HistoryFinding>();
  const report = (umid: string | null, diagnostic: Diagnostic) => {
    const finding = findings.get(diagnostic.file) ?? { file: diagnostic.file, umid, diagnostics: [] };
    finding.diagnostics.push(diagnostic);
    findings.set(diagnostic.file, finding);
  };
  for (const diagnostic of keyPinProblems(before, now, revision)) report(null, diagnostic);
  for (const diagnostic of unsignedOptInProblems(before, now, revision)) report(null, diagnostic);
  for (const diagnostic of resolversProblems(before, now, revision)) report(null, diagnostic);
  if (!now.routesKnown) return [...findings.values()];
  const isRevoked = (state: ResolverState, umid: string) => state.statuses.get(umid)?.list === "revoked";

  for (const [umid, { list, pointer }] of before.statuses) {
    if (list !== "revoked" || isRevoked(now, umid)) continue;
    const was = `UMID ${quoted(umid)} was revoked at ${placeOf(before.routes, `${pointer}/umid`)}`;
    const permanent = "revocation is permanent (EXT-OPT O2.3): put its entry back in the revoked list";
    const listedNow = now.statuses.has(umid)
      ? `${now.statuses.get(umid)!.pointer}/umid`
      : now.redirectEntries.get(umid)?.pointer;
    if (listedNow === undefined) {
      report(
        null,
        diagnostic("history/unrevoked", { file: now.routes.file }, `${was} and is not revoked now; ${permanent}`),
      );
    } else {
      const fate = now.redirects.has(umid) ? "redirected" : now.statuses.get(umid)!.list;
      report(
        null,
        placed(now.routes, listedNow, "history/unrevoked", `${was} and is ${fate} here instead; ${permanent}`),
      );
    }
  }

  const answered = (umid: string) => now.published.has(umid) || now.redirects.has(umid) || isRevoked(now, umid);
  const dropped =
    `so it would answer 404 Not Found to everyone who holds it; revoke or redirect ` +
    `it instead (manifest-resolver revoke / redirect)`;
  for (const [umid, { file }] of before.published) {
    if (answered(umid)) continue;
    const message =
      `UMID ${quoted(umid)} was published by this file at ${revision} and is now ` +
      `neither published, redirected nor revoked, ${dropped}`;
    report(umid, diagnostic("history/vanished", { file }, message));
  }
  for (const [umid, { pointer }] of before.redirectEntries) {
    if (answered(umid)) continue;
    const message =
      `UMID ${quoted(umid)} was redirected here at ${revision} and is now neither ` +
      `published, redirected nor revoked, ${dropped}`;
    report(null, placed(before.routes, pointer, "history/vanished", message));
  }
  for (const { umid, diagnostic } of cursorProblems(before, now)) report(umid, diagnostic);
  for (const diagnostic of redatingProblems(before, now)) report(null, diagnostic);
  for (const diagnostic of statusAllocationProblems(before, now, revision)) report(null, diagnostic);
  return [...findings.values()];
}
