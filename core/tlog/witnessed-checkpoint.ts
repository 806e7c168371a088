/**
 * A checkpoint read under a log policy (C2SP tlog-policy): signed by one of the policy's
 * logs, for its origin, and cosigned by a quorum of its witnesses, each cosignature
 * verified (tlog-cosignature) and no older than a bound. The one reader of a witnessed
 * checkpoint: the client's proof of an answer, the gate, `monitor` and an offline proof
 * all ask it, so that all of them take the same checkpoints.
 *
 * A cosignature counts only while it is fresh: older than `maxAge` it states a view of the
 * log that may since have been replaced (a frozen view shown to this client alone), and
 * one more than a few minutes in the future is no clock's reading.
 */
import { type Checkpoint, parseCheckpoint } from "./checkpoint.ts";
import { openCosignatures } from "./cosignature.ts";
import { type LogPolicy, missingWitnesses, quorumCount, quorumMet } from "./log-policy.ts";
import { parseNote } from "./note.ts";
import type { NoteKey } from "./note-keys.ts";
import { openNote } from "./note-signature.ts";

/** How old a cosignature may be, in seconds, unless the caller says otherwise: 30 days. */
export const DEFAULT_MAX_COSIGNATURE_AGE = 30 * 24 * 60 * 60;

/** How far in the future a cosignature's time may be, in seconds: clocks disagree by that much. */
export const CLOCK_SKEW = 5 * 60;

export interface WitnessCount {
  /** The witnesses the quorum counts that cosigned, freshly. */
  cosigned: number;
  /** The witnesses the quorum counts. */
  of: number;
}

export type WitnessedCheckpoint =
  /** `log`: the policy's log key that signed it (a client keeps what it saw of a log under its key). */
  | ({ ok: true; checkpoint: Checkpoint; note: string; log: NoteKey; witnesses: string[] } & WitnessCount)
  /** No log of the policy signed it for its origin (or a log's signature fails, or it is no checkpoint). */
  | { ok: false; reason: "unsigned"; detail: string }
  /** A policy witness's cosignature line that does not verify: the note is malformed. */
  | { ok: false; reason: "bad-cosignature"; witness: string }
  /**
   * Fresh cosignatures make no quorum: `stale` when old ones would have made it (log/stale-cosignature), else
   * `unwitnessed` (log/unwitnessed). `missing`: the quorum's witnesses with no fresh cosignature; `stale`: the old ones.
   */
  | ({
      ok: false;
      reason: "unwitnessed" | "stale";
      missing: string[];
      stale: { witness: string; timestamp: number }[];
    } & WitnessCount);

export interface WitnessedOptions {
  /** Now, in milliseconds since 1970. */
  now: number;
  /** Seconds; DEFAULT_MAX_COSIGNATURE_AGE if not given. */
  maxAge?: number;
}

/** The checkpoint in `note`, if the policy's logs and quorum of witnesses stand behind it. */
export async function openWitnessedCheckpoint(
  note: Uint8Array | string,
  policy: LogPolicy,
  options: WitnessedOptions,
): Promise<WitnessedCheckpoint> {
  const parsed = parseNote(note);
  const checkpoint = parsed && parseCheckpoint(parsed.text);
  if (parsed === undefined || checkpoint === undefined)
    return { ok: false, reason: "unsigned", detail: "not a signed checkpoint" };
  const logKeys = policy.logs.map((log) => log.key).filter((key) => key.name === checkpoint.origin);
  if (logKeys.length === 0)
    return { ok: false, reason: "unsigned", detail: `no log of the policy has the origin ${checkpoint.origin}` };
  const opened = await openNote(note, logKeys);
  if (!opened.ok) return { ok: false, reason: "unsigned", detail: opened.reason };
  const witnesses = policy.witnesses;
  const cosignatures = await openCosignatures(
    parsed,
    witnesses.map((witness) => witness.key),
  );
  if (!cosignatures.ok) {
    const witness = witnesses.find((known) => known.key === cosignatures.cosigner)!;
    return { ok: false, reason: "bad-cosignature", witness: witness.name };
  }
  const nowSeconds = Math.floor(options.now / 1000);
  const oldest = nowSeconds - (options.maxAge ?? DEFAULT_MAX_COSIGNATURE_AGE);
  const fresh = new Set<string>();
  const stale: { witness: string; timestamp: number }[] = [];
  for (const { key, timestamp } of cosignatures.cosigned) {
    const { name } = witnesses.find((known) => known.key === key)!;
    if (timestamp >= oldest && timestamp <= nowSeconds + CLOCK_SKEW) fresh.add(name);
    else stale.push({ witness: name, timestamp });
  }
  const count = quorumCount(policy.quorum, fresh);
  if (!quorumMet(policy.quorum, fresh)) {
    const withStale = new Set([...fresh, ...stale.map(({ witness }) => witness)]);
    const reason = quorumMet(policy.quorum, withStale) ? "stale" : "unwitnessed";
    return { ok: false, reason, missing: missingWitnesses(policy.quorum, fresh), stale, ...count };
  }
  const text = typeof note === "string" ? note : new TextDecoder().decode(note);
  return { ok: true, checkpoint, note: text, log: opened.verifiedBy[0]!, witnesses: [...fresh], ...count };
}

/**
 * Why a checkpoint was refused, as a predicate of it ("is cosigned by 1 of the 2 witnesses…"), for its reader to put
 * after the checkpoint's URL; `policy` and `options`, those it was read with.
 */
export function witnessedRefusal(
  refused: Exclude<WitnessedCheckpoint, { ok: true }>,
  policy: LogPolicy,
  options: WitnessedOptions,
): string {
  if (refused.reason === "unsigned") {
    const names = [...new Set(policy.logs.map(({ key }) => key.name))];
    return `does not verify with the log key${names.length === 1 ? "" : "s"} of ${names.join(", ")}: ${refused.detail}`;
  }
  if (refused.reason === "bad-cosignature")
    return `has a cosignature of the witness ${refused.witness} that does not verify`;
  const count = `is cosigned by ${refused.cosigned} of the ${refused.of} witnesses the log policy's quorum counts`;
  if (refused.reason === "unwitnessed") return `${count}, short of its quorum: missing ${refused.missing.join(", ")}`;
  const nowSeconds = Math.floor(options.now / 1000);
  const stale = refused.stale.map(
    ({ witness, timestamp }) =>
      `${witness} at ${isoTime(timestamp)}${timestamp > nowSeconds ? " (in the future)" : ""}`,
  );
  return (
    `${count} within the last ${options.maxAge ?? DEFAULT_MAX_COSIGNATURE_AGE} seconds, short of its quorum, ` +
    `which it makes only with cosignatures out of that time: ${stale.join(", ")}`
  );
}

/** A cosignature's time as an ISO date, or as its number where no date reaches it (far in the future). */
function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `time ${seconds}` : date.toISOString();
}
