/**
 * `manifest-resolver explain [RULE]`: a rule's page from the registry (core/rules/), as
 * `rustc --explain` prints an error code's; with no RULE, every rule and its summary.
 * The declaration: all that --help and a usage error need; the run is explain.ts.
 */
import { declareCommand } from "../cli/command.ts";

export const explain = declareCommand({
  name: "explain",
  description: `Prints the page of RULE, the rule a problem names ('file:line:col - error RULE: message'):
what is wrong, its severity unless --strict says otherwise, why it matters, where the rule
comes from, how to fix it, and an example where one helps. With no RULE, lists every rule
with its summary. docs/rules.md holds the same pages.`,
  epilogue: `Exit status: 0 printed, 2 usage error (a RULE there is none of: the nearest are named).

Examples:
  manifest-resolver explain signature/invalid
  manifest-resolver explain`,
  settings: false,
  positionals: [{ name: "RULE" }],
  options: {},
});
