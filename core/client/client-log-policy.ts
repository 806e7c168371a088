/**
 * The log policy a client proves answers under (C2SP tlog-policy), from the options that give it: `logPolicy`, a
 * policy's text, whose quorum of witnesses must have cosigned the log's checkpoint; or `logKey` alone, the policy of
 * that key with a quorum of none, which proves what the log signed and not that it shows everyone the same view.
 * Loaded with the log's proof (latest-logged.ts), apart from the common client.
 */
import { DEFAULT_MAX_COSIGNATURE_AGE } from "../tlog/witnessed-checkpoint.ts";
import { keyOnlyPolicy, type LogPolicy, parseLogPolicy } from "../tlog/log-policy.ts";
import { parseVerifierKey } from "../tlog/note-keys.ts";

export interface ClientLogPolicy {
  policy: LogPolicy;
  /** Seconds a cosignature counts for. */
  maxCosignatureAge: number;
}

/** The policy of `logPolicy` or of `logKey` (one of them given); throws TypeError for either unusable. */
export function clientLogPolicy(options: {
  logKey?: string;
  logPolicy?: string;
  maxCosignatureAge?: number;
}): ClientLogPolicy {
  const { logKey, logPolicy, maxCosignatureAge = DEFAULT_MAX_COSIGNATURE_AGE } = options;
  if (logKey !== undefined && logPolicy !== undefined)
    throw new TypeError("logKey and logPolicy: give one or the other (a policy names its log's key)");
  if (!(Number.isSafeInteger(maxCosignatureAge) && maxCosignatureAge >= 0))
    throw new TypeError("maxCosignatureAge is not a whole number of seconds, 0 or more");
  if (logPolicy === undefined) {
    const key = parseVerifierKey(logKey ?? "");
    if (key === undefined)
      throw new TypeError("logKey is not a signed-note verifier key, <origin>+<keyid>+<key> (Ed25519)");
    return { policy: keyOnlyPolicy(key), maxCosignatureAge };
  }
  const parsed = parseLogPolicy(logPolicy);
  if (!parsed.ok) throw new TypeError(`logPolicy, line ${parsed.line}, column ${parsed.column}: ${parsed.message}`);
  // A witness's list of logs has no quorum; a client's policy must name the log it reads, or it trusts none.
  if (parsed.policy.logs.length === 0) throw new TypeError("logPolicy has no log line: a client policy needs its log");
  return { policy: parsed.policy, maxCosignatureAge };
}
