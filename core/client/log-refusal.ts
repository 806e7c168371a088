/**
 * How a log proof refuses an answer: a receipt warning of a log rule, `um:reason:log:…`.
 * One mapping of a checkpoint refused under a policy (openWitnessedCheckpoint) to its
 * rule, for every caller: the online proof of an answer and an offline proof alike.
 */
import type { Warning } from "../evaluate/receipt.ts";
import type { WitnessedCheckpoint } from "../tlog/witnessed-checkpoint.ts";

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

/** The refusal of a checkpoint the policy does not stand behind. */
export function witnessedRefusal(witnessed: Extract<WitnessedCheckpoint, { ok: false }>): {
  ok: false;
  refusal: Warning;
} {
  switch (witnessed.reason) {
    case "unsigned":
      return logRefusal("log/unproven", `the checkpoint is not signed by a log of the policy: ${witnessed.detail}`);
    case "bad-cosignature":
      return logRefusal("log/unproven", `the cosignature of witness ${witnessed.witness} does not verify`);
    case "stale": {
      const stale = witnessed.stale.map(({ witness, timestamp }) => `${witness} at ${isoTime(timestamp)}`);
      return logRefusal(
        "log/stale-cosignature",
        `the checkpoint's cosignatures are too old to make the quorum (${stale.join(", ")})`,
      );
    }
    case "unwitnessed":
      return logRefusal(
        "log/unwitnessed",
        `the checkpoint is cosigned by ${witnessed.cosigned} of the ${witnessed.of} witnesses the quorum counts; ` +
          `missing: ${witnessed.missing.join(", ")}`,
      );
  }
}

/** A cosignature's time as an ISO date, or as its number where no date reaches it (far in the future). */
function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `time ${seconds}` : date.toISOString().replace(".000Z", "Z");
}
