/**
 * What a relying party found of a manifest's status, handed to the evaluator: its own
 * module, so that the evaluation's state (evaluation.ts) and verify step 3
 * (revocation.ts) both name it without importing each other.
 */
import type { RuleId } from "../rules/index.ts";
import type { Receipt, Warning } from "./receipt.ts";

/** The result of resolving a manifest's status, given to `evaluate` (EvaluateOptions.revocation). */
export interface Revocation {
  status: Receipt["revocationStatus"];
  /**
   * A registry code (`um:reason:status:…`) for why the status is what it is: for
   * "unchecked", why it could not be determined (O2.4: `um:reason:status:endpoint-unavailable`,
   * `…:endpoint-unknown-manifest`, `…:http-<status>`, `…:offline`); without one, an
   * "unchecked" result records no warning. Default for "revoked" `um:reason:status:revoked`,
   * for "suspended" `um:reason:status:suspended`; ignored for "active".
   */
  code?: string;
  /**
   * For "unchecked": record `code` as the receipt's `revocationReason` only, with no warning, so that no outcome is
   * lowered by it: a status nobody lists (`um:reason:status:not-listed`) says no more than a manifest that names no
   * statusRef, which records none. Default false.
   */
  withoutWarning?: boolean;
  /** The warning's words: what the status endpoint said, or why it could not be asked. */
  message?: string;
  /**
   * The rule that set the status against what was answered, for the warning: the client's
   * memory of a status seen before (core/client/status-memory.ts) keeps a revocation the
   * resolver now contradicts, and a suspension an older cursor would lift.
   */
  rule?: RuleId;
  /**
   * What the status was taken on (the receipt's `revocationResolvedBy`): "keys" when the relying party pinned the key
   * whose proof a status list carries, else the URL that answered, trusted because its origin served it (over https:).
   * Ignored for "unchecked".
   */
  resolvedBy?: string;
  /**
   * Non-critical warnings about where the status came from, recorded whatever the status (a statusRef on another
   * origin than the resolver's, a federation peer that did not answer or disagreed).
   */
  warnings?: readonly Warning[];
}
