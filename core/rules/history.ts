/**
 * Rules of a change against what the resolver already answered (`check --base REV`,
 * scripts/history/): history a pull request cannot rewrite.
 */
import type { Rule } from "./rule.ts";

const REDATED =
  "When a status began is history: relying parties were told it, in the status " +
  "document's updatedAt and cursor (EXT-OPT O2.2), and order the statuses they see " +
  "by it.";

export const HISTORY_RULES = {
  "history/unrevoked": {
    severity: "error",
    summary: "a UMID revoked at the base revision is not revoked now",
    why:
      "Revocation is permanent (EXT-OPT O2.3): relying parties that saw the UMID " +
      "revoked keep it revoked, whatever the resolver says later, and a key or " +
      "manifest revoked for a reason must not come back by an edit.",
    source: "EXT-OPT O2.3",
    fix: "Put the UMID's entry back in the revoked list of _routes.json, as it was at the base revision.",
  },
  "history/vanished": {
    severity: "error",
    summary: "a UMID published or redirected at the base revision is now neither published, redirected nor revoked",
    why:
      "It would answer 404 Not Found to everyone who holds a link to it, as if it had " +
      "never existed, rather than 410 (revoked) or 307 (moved).",
    source: "contract 3.1",
    fix:
      "Revoke or redirect the UMID instead of deleting it: manifest-resolver revoke " +
      "UMID, or manifest-resolver redirect UMID URL.",
  },
  "history/cursor-regressed": {
    severity: "error",
    summary: "a status change is dated no later than the status it ends",
    why:
      "A UMID's status cursor is when its current status began; relying parties order " +
      "the statuses they see by it (EXT-OPT O2.1, O2.2), so a change whose cursor does " +
      "not increase is refused by them as a rollback, and they keep the old status.",
    source: "EXT-OPT O2.1, O2.2",
    fix: "Date the change after the status it ends; manifest-resolver suspend, reinstate and revoke do.",
  },
  "history/revocation-redated": {
    severity: "error",
    summary: "a revocation's revokedAt was changed",
    why: `${REDATED} A revocation is never undone nor made again, so its time never moves.`,
    source: "EXT-OPT O2.2, O2.3",
    fix: "Put revokedAt back to its value at the base revision (the message names it).",
  },
  "history/suspension-redated": {
    severity: "error",
    summary: "a suspension's suspendedAt was moved earlier",
    why: `${REDATED} A suspension lifted and made again (reinstate, then suspend) begins later, never earlier.`,
    source: "EXT-OPT O2.2",
    fix: "Put suspendedAt back to its value at the base revision; to suspend again, reinstate and then suspend.",
  },
  "history/reinstatement-redated": {
    severity: "error",
    summary: "a reinstatement's reinstatedAt was moved earlier",
    why: `${REDATED} A reinstatement made again (suspend, then reinstate) begins later, never earlier.`,
    source: "EXT-OPT O2.2",
    fix: "Put reinstatedAt back to its value at the base revision; to reinstate again, suspend and then reinstate.",
  },
} satisfies Record<string, Rule>;
