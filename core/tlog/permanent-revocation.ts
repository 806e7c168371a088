/**
 * Revocation is permanent (EXT-OPT O2.3): once a UMID's revocation is logged, no other state may follow it in the
 * log. A log that records one signs that the revocation was undone, and a relying party that takes the latest entry
 * would accept the revived manifest. `log` refuses to append such an entry, `check` and `build` refuse content that
 * calls for one, `monitor` refuses a log that holds one; a client judges a logged state it proves the same way.
 */
import type { LogEntry } from "./log-entry.ts";

/** Whether `next`, logged after `previous` (the UMID's latest entry before it; undefined: none), undoes a revocation. */
export function isRevival(previous: LogEntry | undefined, next: LogEntry): boolean {
  return previous?.state === "revoked" && next.state !== "revoked";
}
