/**
 * What this client has seen of a UMID's status, and what a later answer may change of it
 * (EXT-OPT O2.3). "revoked" is permanent: once seen, no answer makes the UMID anything
 * else, and one that says otherwise (active, suspended, or a manifest served with no
 * status to check) is the resolver contradicting itself, recorded under the rule
 * `status/revocation-contradicted`. A suspension ends only by an "active" whose cursor is
 * newer than that of the suspension; an older or equal one is a rollback (a stale replica
 * or cache), refused under the rule `status/cursor-rollback`. An answer that tightens
 * (suspended, revoked) is believed whatever its cursor, as it loosens nothing; one that
 * says nothing (the endpoint cannot be asked) ends nothing.
 *
 * What was seen is kept in the client's memory (trust-memory.ts), apart from its HTTP
 * cache, under the URL the UMID is resolved at: what one resolver said binds what that
 * resolver says later, and no other, so a resolver tried once cannot revoke a UMID at the
 * one the client trusts. A revocation is kept for good, a suspension until an "active" ends
 * it; an "active" is not kept, as it is what a UMID never seen is. Only a status a receipt
 * recorded is kept: one a manifest whose signature failed pointed to is nobody's.
 */
import type { Revocation } from "../evaluate/revocation-input.ts";
import { cursorNewer, type ManifestStatus } from "../status/status-document.ts";
import type { StatusAnswer } from "./status-resolution.ts";
import { quoted } from "../excerpt.ts";
import type { TrustMemory } from "./trust-memory.ts";

export interface SeenStatus {
  status: ManifestStatus;
  cursor?: string;
}

export interface Reconciled {
  /** The status to evaluate with. */
  revocation: Revocation | undefined;
  /** What to remember once the receipt records that status; undefined when nothing changes. */
  remember: SeenStatus | undefined;
}

const keyOf = (resolveUrl: string) => `status ${resolveUrl}`;

/** What `memory` holds of the status of the UMID resolved at `resolveUrl`; undefined when nothing (or "active"). */
export async function recallStatus(
  memory: TrustMemory | undefined,
  resolveUrl: string,
): Promise<SeenStatus | undefined> {
  const record = await memory?.recall(keyOf(resolveUrl));
  if (record === undefined || record.kind === "checkpoint") return undefined;
  return { status: record.kind, ...(record.cursor !== undefined && { cursor: record.cursor }) };
}

/**
 * Keeps `seen` as the status of the UMID resolved at `resolveUrl`; `url` is where it was answered, `now` the evaluation
 * clock. What the memory holds is read again first, and `seen` kept only where it may
 * follow that by the rules above: another resolution may have recorded a revocation, or a
 * newer suspension, since this one began (the window that remains is the store's
 * read-then-write, not a whole resolution's). An "active" that may follow a suspension ends it: it is forgotten.
 */
export async function rememberStatus(
  memory: TrustMemory | undefined,
  resolveUrl: string,
  seen: SeenStatus,
  url: string,
  now: number,
): Promise<void> {
  if (memory === undefined) return;
  const stored = await recallStatus(memory, resolveUrl);
  const kept =
    stored === undefined
      ? seen
      : reconcileStatus(stored, {
          revocation: { status: seen.status },
          ...(seen.cursor !== undefined && { cursor: seen.cursor }),
        }).remember;
  if (kept === undefined) return;
  const key = keyOf(resolveUrl);
  if (kept.status === "active") await memory.forget(key);
  else
    await memory.keep(key, {
      kind: kept.status,
      ...(kept.cursor !== undefined && { cursor: kept.cursor }),
      url,
      storedAt: now,
    });
}

/** What `answer` (undefined: a manifest served with no status to check) means, given what was `seen` before. */
export function reconcileStatus(seen: SeenStatus | undefined, answer: StatusAnswer | undefined): Reconciled {
  const said = answer?.revocation.status;
  const cursor = answer?.cursor;
  const settled = (revocation: Revocation | undefined, next: SeenStatus | undefined): Reconciled => ({
    revocation,
    remember: next === undefined || (next.status === seen?.status && next.cursor === seen.cursor) ? undefined : next,
  });
  const believed = (kept = cursor) =>
    settled(
      answer?.revocation,
      said === undefined || said === "unchecked"
        ? undefined
        : { status: said, ...(kept !== undefined && { cursor: kept }) },
    );

  if (seen === undefined || seen.status === "active" || said === "revoked") return believed();
  if (seen.status === "revoked") return settled(stillRevoked(seen, answer), undefined);
  // Suspended: the newer of two suspensions is the one an "active" must be newer than.
  if (said === "suspended")
    return believed(
      seen.cursor !== undefined && (cursor === undefined || !cursorNewer(cursor, seen.cursor)) ? seen.cursor : cursor,
    );
  if (said === "active" && cursor !== undefined && seen.cursor !== undefined && cursorNewer(cursor, seen.cursor))
    return believed();
  return settled(stillSuspended(seen, answer), undefined);
}

function stillRevoked(seen: SeenStatus, answer: StatusAnswer | undefined): Revocation {
  const seenAs =
    `this client saw the manifest ` +
    `revoked${seen.cursor === undefined ? "" : ` ${at(seen.cursor)}`}, and ` +
    `revocation is permanent (EXT-OPT O2.3)`;
  // A status nobody lists (not-listed) is as no status to check: the manifest served is what contradicts.
  if (answer?.revocation.status === "unchecked" && answer.revocation.withoutWarning !== true)
    return { status: "revoked", message: `${seenAs}; now ${answer.revocation.message}` };
  return {
    status: "revoked",
    rule: "status/revocation-contradicted",
    message: `${seenAs}, yet ${saying(answer)}: a contradiction, not believed`,
  };
}

function stillSuspended(seen: SeenStatus, answer: StatusAnswer | undefined): Revocation {
  const seenAs = `the suspension this client saw ${at(seen.cursor)}`;
  if (answer?.revocation.status === "active") {
    return {
      status: "suspended",
      rule: "status/cursor-rollback",
      message: `${saying(answer)}, not newer than ${seenAs}: a rollback, refused; still suspended (EXT-OPT O2.1, O2.3)`,
    };
  }
  return {
    status: "suspended",
    message:
      `${answer === undefined ? saying(answer) : answer.revocation.message}; ${seenAs} ` +
      `stands until an answer with a newer cursor ends it`,
  };
}

/** What the resolver or its status endpoint said this time, in words. */
function saying(answer: StatusAnswer | undefined): string {
  return answer === undefined || answer.revocation.status === "unchecked"
    ? "the resolver now serves a manifest for it with no status to check"
    : `the status endpoint now answers ${answer.revocation.status} ${at(answer.cursor)}`;
}

function at(cursor: string | undefined): string {
  return cursor === undefined ? "with no cursor" : `at cursor ${quoted(cursor)}`;
}
