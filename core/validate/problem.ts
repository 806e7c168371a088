/**
 * What is wrong with a value, and where: the one shape every rule reports in (schema,
 * cross-field, signature), so that `check` places it in a file as `file:line:col` and the
 * evaluator records it in a receipt, from the same list.
 */
import type { RuleId } from "../rules/index.ts";

export interface Problem {
  /** JSON pointer (RFC 6901) of the value at fault; "" for the whole document. */
  pointer: string;
  /** The rule broken, such as `schema/required` or `signature/invalid` (core/rules/). */
  rule: RuleId;
  message: string;
}
