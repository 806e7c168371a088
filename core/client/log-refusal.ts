/**
 * How a log proof refuses an answer: a receipt warning of a log rule, `um:reason:log:…`,
 * for the online proof of an answer (latest-logged.ts) and an offline one
 * (offline-proof.ts) alike, and the one mapping of a checkpoint a policy does not take
 * to its rule.
 */
import type { Warning } from "../evaluate/receipt.ts";
import type { WitnessCount, WitnessedCheckpoint } from "../tlog/witnessed-checkpoint.ts";

type LogRule =
  | "log/not-latest"
  | "log/unproven"
  | "log/inconsistent"
  | "log/revocation-undone"
  | "log/unwitnessed"
  | "log/stale-cosignature";

export function logRefusal(rule: LogRule, message: string): { ok: false; refusal: Warning } {
  return { ok: false, refusal: { code: `um:reason:${rule.replace("/", ":")}`, message, rule } };
}

/**
 * The refusal of a checkpoint the policy does not take: not the log's, or a cosignature that fails (log/unproven),
 * or not witnessed enough, with how many cosigned and who is missing.
 */
export function checkpointRefusal(
  opened: Exclude<WitnessedCheckpoint, { ok: true }>,
  message: string,
): { ok: false; refusal: Warning; witnessed?: WitnessCount & { missing: string[] } } {
  if (opened.reason === "unsigned" || opened.reason === "bad-cosignature") return logRefusal("log/unproven", message);
  const rule = opened.reason === "unwitnessed" ? "log/unwitnessed" : "log/stale-cosignature";
  const { cosigned, of, missing } = opened;
  return { ...logRefusal(rule, message), witnessed: { cosigned, of, missing } };
}
