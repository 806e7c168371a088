/**
 * `--log-policy FILE`: a transparency log policy (C2SP tlog-policy) read from a file, for
 * every command that takes one. A file that cannot be read, or a policy that breaks the
 * format, is a usage error naming FILE:line:column and what is wrong.
 */
import { readFileSync } from "node:fs";
import { type LogPolicy, parseLogPolicy } from "../../core/tlog/log-policy.ts";
import { UsageError } from "../cli/command.ts";

/** The policy in `file`, and its text as read. */
export function readLogPolicy(file: string): { text: string; policy: LogPolicy } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--log-policy ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const parsed = parseLogPolicy(text);
  if (!parsed.ok) throw new UsageError(`--log-policy ${file}:${parsed.line}:${parsed.column}: ${parsed.message}`);
  if (parsed.policy.logs.length === 0)
    throw new UsageError(`--log-policy ${file}: the policy names no log (a line: log <verifier key>)`);
  return { text, policy: parsed.policy };
}
