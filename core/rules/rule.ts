/**
 * What the registry says of one rule: enough for `manifest-resolver explain RULE`, for
 * docs/rules.md, and for the rule entries of a SARIF log, from one place.
 */

/** How bad a broken rule is, worst first: SARIF's levels, which GitHub code scanning shows. */
export const SEVERITIES = ["error", "warning", "note"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Rule {
  /** The severity a diagnostic of this rule has unless its caller says otherwise (`--strict`). */
  severity: Severity;
  /** One line: what is wrong. */
  summary: string;
  /** A paragraph: why it matters, to the publisher or to those who rely on the manifest. */
  why: string;
  /** Where the rule comes from: a contract section, an RFC, a clause of the Universal Manifest spec. */
  source: string;
  /** What to do about it. */
  fix: string;
  /** Text that shows the fault or the fix, where one helps. */
  example?: string;
}
