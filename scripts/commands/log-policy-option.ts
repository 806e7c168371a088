/**
 * What `--log-key` and `--log-policy` give `resolve` and `monitor`: the policy a log's checkpoint is read under. A key
 * alone still works, as a policy of no witness, with a warning on stderr that it leaves a split view undetected.
 */
import { readFileSync } from "node:fs";
import { decodeUtf8 } from "../../core/base64url.ts";
import { keyOnlyPolicy, type LogPolicy, parseLogPolicy } from "../../core/tlog/log-policy.ts";
import { parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { UsageError } from "../cli/command.ts";
import { printable } from "../report/diagnostics.ts";

export interface LogPolicyOption {
  /** The policy's text as the file holds it (`logPolicy` of the library), or undefined for a key alone. */
  text: string | undefined;
  policy: LogPolicy;
}

const SPLIT_VIEW =
  "no witness cosigns the log's checkpoints, so a split view (one log shown to you, another to others) is not detected";

/** The one line `--log-key` without `--log-policy` prints on stderr. */
export const KEY_ONLY_WARNING = `manifest-resolver: warning: --log-key without --log-policy: ${SPLIT_VIEW}`;

/**
 * The policy of `--log-policy FILE`, or of the verifier key `--log-key` gives (`logKey`, read already); undefined
 * when neither is given. A usage error for both, --max-cosignature-age without a policy, a file that cannot be read,
 * or a policy that breaks the syntax (FILE:line:column) or names no log.
 */
export function logPolicyOption(
  values: { "log-policy": string | undefined; "max-cosignature-age": number | undefined },
  logKey: string | undefined,
): LogPolicyOption | undefined {
  const file = values["log-policy"];
  if (file !== undefined && logKey !== undefined)
    throw new UsageError("--log-key and --log-policy: give one or the other (a policy names its log's key)");
  // Without a policy there is no witness, and no cosignature whose age to bound.
  if (file === undefined && values["max-cosignature-age"] !== undefined)
    throw new UsageError("--max-cosignature-age bounds the cosignatures of a --log-policy's witnesses: give one");
  if (file === undefined) {
    const key = logKey === undefined ? undefined : parseVerifierKey(logKey);
    if (key === undefined) return undefined;
    console.error(printable(KEY_ONLY_WARNING));
    return { text: undefined, policy: keyOnlyPolicy(key) };
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(`--log-policy ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  // UTF-8 strictly, as content/_log/policy is read: a lossy decode could make two names one.
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new UsageError(`--log-policy ${file} is not UTF-8 text`);
  const parsed = parseLogPolicy(text);
  if (!parsed.ok) throw new UsageError(`--log-policy ${file}:${parsed.line}:${parsed.column}: ${parsed.message}`);
  if (parsed.policy.logs.length === 0)
    throw new UsageError(`--log-policy ${file}: no log line: a client's policy names the log it reads`);
  if (parsed.policy.quorum.kind === "none")
    console.error(printable(`manifest-resolver: warning: --log-policy ${file} has the quorum none: ${SPLIT_VIEW}`));
  return { text, policy: parsed.policy };
}
