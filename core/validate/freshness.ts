/**
 * Whether a manifest is current at a given instant (core §3.1.2): expired once `now` is
 * past `expiresAt`, stale while `issuedAt` is more than the clock-skew tolerance ahead.
 * Not part of the structural verdict (which must not depend on the clock): the build
 * warns, `check --strict` fails, so that a publisher does not deploy a manifest consumers
 * will refuse; the evaluator rejects, with `freshnessCheck` "expired" or "stale".
 */
import { excerpt, quoted } from "../excerpt.ts";
import { instant } from "../date-time.ts";
import type { Problem } from "./problem.ts";

/** Clock difference tolerated between the signer's machine and the builder's. */
export const CLOCK_SKEW_MS = 60_000;

export function freshnessProblems(manifest: Record<string, unknown>, now: Date): Problem[] {
  const problems: Problem[] = [];
  const expires = instant(manifest.expiresAt);
  const issued = instant(manifest.issuedAt);
  if (expires !== undefined && expires < now.getTime()) {
    problems.push({
      pointer: "/expiresAt",
      rule: "time/expired",
      message:
        `expired at ${excerpt(String(manifest.expiresAt))}: consumers must reject it ` +
        `(now is ${now.toISOString()})`,
    });
  } else if (expires === undefined && Object.hasOwn(manifest, "expiresAt")) {
    // Fail closed: an expiry that cannot be read is never in the future.
    problems.push({
      pointer: "/expiresAt",
      rule: "time/expired",
      message: `expiresAt ${quoted(manifest.expiresAt)} names no instant: treated as expired`,
    });
  }
  if (issued !== undefined && issued > now.getTime() + CLOCK_SKEW_MS) {
    problems.push({
      pointer: "/issuedAt",
      rule: "time/not-yet-issued",
      message: `issuedAt ${excerpt(String(manifest.issuedAt))} is in the future (now is ${now.toISOString()})`,
    });
  }
  return problems;
}
