/**
 * What is wrong with a value, and where: the one shape every rule reports in (schema,
 * cross-field, signature), so that `check` places it in a file as `file:line:col` and the
 * evaluator records it in a receipt, from the same list.
 */
export interface Problem {
  /** JSON pointer (RFC 6901) of the value at fault; "" for the whole document. */
  pointer: string;
  /** A stable name for the rule broken, such as `schema/required` or `signature/invalid`. */
  rule: string;
  message: string;
}
