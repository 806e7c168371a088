/**
 * The gate's reading of the transparency log (issue 26, section 3), when the content has
 * one (`content/_log/`): the log must verify (its checkpoint under its verifier, its tiles
 * and bundles hashing to the checkpoint's root), and its latest entry for each UMID must
 * be what the content now serves. Otherwise the resolver would serve states no log
 * records, and clients that check the log would refuse them. With a base revision
 * (`check --base`), the log must also extend the log committed there (log-history.ts).
 * With a witness policy (content/_log/policy), the checkpoint must carry a quorum of its
 * witnesses' fresh cosignatures (issue 41; witnessed-note.ts), or it is not served.
 * Content without a log, now or at the base, is not judged here. `check` and `build`
 * both ask it, on their own content check.
 */
import { join } from "node:path";
import { quoted } from "../../core/excerpt.ts";
import type { ContentCheck } from "../check/check-content.ts";
import type { Revision } from "../history/git-revision.ts";
import { displayPath, ROUTES_FILE } from "../read/files.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { parseLogEntry } from "../../core/tlog/log-entry.ts";
import { changedEntries, revivedUmids, servedEntries, unservedUmids } from "./log-entries.ts";
import { type AuditedLog, CHECKPOINT_FILE, LOG_FOLDER, type OpenedLog } from "./log-folder.ts";
import { readLogPolicy } from "./policy-file.ts";
import { witnessProblem } from "./witnessed-note.ts";
import { logHistoryProblems } from "./log-history.ts";

const RUN_LOG = "run manifest-resolver log --key <the log's key> before pushing";

/** `log`: the log of the content folder `contentDir`, as openContentLog opened it; undefined when it keeps none. */
export async function logGateProblems(
  contentDir: string,
  log: OpenedLog | undefined,
  content: ContentCheck,
  base?: Revision,
): Promise<Diagnostic[]> {
  const logDir = join(contentDir, LOG_FOLDER);
  if (log?.ok === false)
    return [diagnostic(log.rule ?? "log/unverifiable", { file: displayPath(join(logDir, log.file)) }, log.reason)];
  const problems = base === undefined ? [] : await logHistoryProblems(contentDir, log, base);
  if (log === undefined) return problems;
  problems.push(...(await witnessProblems(logDir, log)));
  const served = servedEntries(content);
  const unserved = unservedProblem(logDir, content, served, log.logged.latest);
  if (unserved !== undefined) problems.push(unserved);
  const revived = revivedUmids(served, log.logged.latest);
  if (revived.length > 0) problems.push(revivalProblem(logDir, revived));
  // A revived UMID's own problem says what to do: not run log, which refuses it.
  const unstale = new Set(revived);
  const stale = changedEntries(served, log.logged.latest).filter((entry) => !unstale.has(umidOf(entry)));
  if (stale.length === 0) return problems;
  problems.push(
    diagnostic(
      "log/stale",
      { file: displayPath(join(logDir, CHECKPOINT_FILE)) },
      `${stale.length} UMID${stale.length === 1 ? "'s" : "s'"} served state is not the log's latest entry ` +
        `(the first: ${JSON.stringify(umidOf(stale[0]!))}): ${RUN_LOG}`,
    ),
  );
  return problems;
}

/**
 * The problems of the log's checkpoint under its witness policy (content/_log/policy), when it has one: the policy
 * must parse, and the checkpoint carry a quorum of its witnesses' fresh cosignatures. Read now, every run: a
 * cosignature's freshness is the time's, which no cached state of the log may answer for.
 */
async function witnessProblems(logDir: string, log: AuditedLog): Promise<Diagnostic[]> {
  const policy = await readLogPolicy(logDir, log.key);
  if (policy?.ok === false) return [policy.problem];
  if (policy === undefined || log.signedCheckpoint === undefined) return [];
  const file = displayPath(join(logDir, CHECKPOINT_FILE));
  const problem = await witnessProblem(file, log.signedCheckpoint, policy.policy, Date.now());
  return problem === undefined ? [] : [problem];
}

/** The UMID of an entry the content calls for (changedEntries). */
function umidOf(entry: Uint8Array): string {
  return parseLogEntry(entry)!.umid;
}

/**
 * The problem of content that serves `revived` (revivedUmids: UMIDs whose logged revocation it does not serve) in
 * another state: revocation is permanent, so `log` refuses it too, and no run of it fixes it.
 */
export function revivalProblem(logDir: string, revived: readonly string[]): Diagnostic {
  const one = revived.length === 1;
  return diagnostic(
    "log/revocation-undone",
    { file: displayPath(join(logDir, CHECKPOINT_FILE)) },
    `${revived.length} UMID${one ? "" : "s"} the log records as revoked ${one ? "is" : "are"} served in another ` +
      `state (the first: ${quoted(revived[0])}): revocation is permanent; restore ${one ? "its" : "their"} ` +
      `revocation in ${ROUTES_FILE}, and publish a new UMID instead`,
  );
}

/**
 * The problem of a log whose UMIDs the content (`served`, its servedEntries) no longer all serves: `log` cannot append
 * what fixes it, so `log` refuses it too.
 */
export function unservedProblem(
  logDir: string,
  content: ContentCheck,
  served: ReadonlyMap<string, string>,
  latest: ReadonlyMap<string, string>,
): Diagnostic | undefined {
  const unserved = unservedUmids(content, served, latest);
  if (unserved.length === 0) return undefined;
  return diagnostic(
    "log/unserved",
    { file: displayPath(join(logDir, CHECKPOINT_FILE)) },
    `${unserved.length} UMID${unserved.length === 1 ? "" : "s"} the log records ${unserved.length === 1 ? "is" : "are"} ` +
      `no longer served (the first: ${quoted(unserved[0])}): revoke or redirect ` +
      `${unserved.length === 1 ? "it" : "them"} instead, or publish ${unserved.length === 1 ? "it" : "them"} again`,
  );
}
