/**
 * The log's checkpoint and its witnesses' cosignatures (issue 41), as `log` keeps them in content/_log/checkpoint:
 * the log's signature first, then each policy witness's cosignature, in policy order. And the verdict check and
 * build give on it: openWitnessedCheckpoint (core/tlog/witnessed-checkpoint.ts), the one reader of a witnessed
 * checkpoint, read now, never cached, since a cosignature's freshness depends on the time of reading.
 */
import { openCosignatures } from "../../core/tlog/cosignature.ts";
import type { LogPolicy, PolicyWitness } from "../../core/tlog/log-policy.ts";
import { formatNote, type Note, type NoteSignature } from "../../core/tlog/note.ts";
import type { NoteKey } from "../../core/tlog/note-keys.ts";
import { openWitnessedCheckpoint } from "../../core/tlog/witnessed-checkpoint.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

/** A witness's verified cosignature on a checkpoint: its note line, and its time in seconds. */
export interface HeldCosignature {
  line: NoteSignature;
  timestamp: number;
}

/**
 * The policy witnesses' cosignatures on `note` that verify, by witness name; none when a policy witness's line does
 * not verify (someone edited the file): then the log asks every witness again.
 */
export async function heldCosignatures(
  note: Note,
  witnesses: readonly PolicyWitness[],
): Promise<Map<string, HeldCosignature>> {
  const held = new Map<string, HeldCosignature>();
  const opened = await openCosignatures(
    note,
    witnesses.map((witness) => witness.key),
  );
  if (!opened.ok) return held;
  for (const { key, timestamp } of opened.cosigned) {
    const witness = witnesses.find((known) => known.key === key)!;
    const line = note.signatures.find((signature) => isBy(signature, key))!;
    held.set(witness.name, { line, timestamp });
  }
  return held;
}

/** `note`'s text with the log's signatures (by `logKey`) and then `cosignatures`, in the policy's witness order. */
export function cosignedNote(
  note: Note,
  logKey: NoteKey,
  witnesses: readonly PolicyWitness[],
  cosignatures: ReadonlyMap<string, HeldCosignature>,
): string {
  const logLines = note.signatures.filter((signature) => isBy(signature, logKey));
  const cosigned = witnesses.flatMap((witness) => cosignatures.get(witness.name)?.line ?? []);
  return formatNote({ text: note.text, signatures: [...logLines, ...cosigned] });
}

/** `note` signed by the log alone: what a witness is sent. */
export function logSignedNote(note: Note, logKey: NoteKey): string {
  return formatNote({ text: note.text, signatures: note.signatures.filter((signature) => isBy(signature, logKey)) });
}

/**
 * The problem of the checkpoint `signedCheckpoint` (shown as `file`) under `policy` at `now` (milliseconds), if its
 * cosignatures make no fresh quorum: log/unwitnessed naming the witnesses missing, log/stale-cosignature when only
 * their age keeps old ones from counting, log/unverifiable for a cosignature line that does not verify.
 */
export async function witnessProblem(
  file: string,
  signedCheckpoint: Uint8Array | string,
  policy: LogPolicy,
  now: number,
): Promise<Diagnostic | undefined> {
  const read = await openWitnessedCheckpoint(signedCheckpoint, policy, { now });
  if (read.ok) return undefined;
  const run = "run manifest-resolver log to have it cosigned";
  switch (read.reason) {
    case "unsigned":
      return diagnostic("log/unverifiable", { file }, `not the policy's log's checkpoint: ${read.detail}`);
    case "bad-cosignature":
      return diagnostic(
        "log/unverifiable",
        { file },
        `the cosignature line of the witness ${read.witness} does not verify: restore the file, or ${run} again`,
      );
    case "stale": {
      const oldest = Math.min(...read.stale.map(({ timestamp }) => timestamp));
      const when = new Date(oldest * 1000).toISOString();
      const names = read.stale.map(({ witness }) => witness).join(", ");
      return diagnostic(
        "log/stale-cosignature",
        { file },
        `${read.cosigned} of ${read.of} witnesses cosigned it recently; ${names} did so too long ago (the oldest at ` +
          `${when}): ${run} again, and deploy`,
      );
    }
    case "unwitnessed":
      return diagnostic(
        "log/unwitnessed",
        { file },
        `${read.cosigned} of ${read.of} witnesses cosigned it, short of the quorum of content/_log/policy; ` +
          `missing: ${read.missing.join(", ")}: ${run}`,
      );
  }
}

function isBy(signature: NoteSignature, key: NoteKey): boolean {
  return signature.keyName === key.name && signature.keyId === key.keyId;
}
