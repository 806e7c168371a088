/**
 * `log` having its checkpoint cosigned (issue 41), once the log's append is written: a witness is only ever shown a
 * tree the local log already holds, so that a run killed, or refused, never leaves a witness holding a tree the log
 * lacks (which would fork it from the log's next checkpoint). Each witness asked is asked at once, with the size it
 * last cosigned as far as the log knows: the checkpoint's size if it cosigned this one, the previous checkpoint's if
 * it cosigned that one, else 0 (the witness's 409 then says: witness-client.ts). The cosignatures that verify are
 * appended to the checkpoint, which is written again, whatever the others answered: a later run asks only those
 * still missing.
 *
 * A witness is asked when it holds no cosignature of the checkpoint younger than REFRESH_AGE: so a `log` run that
 * changes nothing renews cosignatures a day old, long before clients (30 days by default) or the gate refuse them.
 */
import { CLOCK_SKEW } from "../../core/tlog/witnessed-checkpoint.ts";
import { join } from "node:path";
import { parseCheckpoint } from "../../core/tlog/checkpoint.ts";
import type { LogPolicy, PolicyWitness } from "../../core/tlog/log-policy.ts";
import { parseNote } from "../../core/tlog/note.ts";
import type { NoteKey } from "../../core/tlog/note-keys.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { CHECKPOINT_FILE, fileTileStore } from "./log-folder.ts";
import { askWitness, type WitnessAnswer } from "./witness-client.ts";
import { cosignedNote, type HeldCosignature, heldCosignatures, logSignedNote } from "./witnessed-note.ts";

/** A cosignature older than this, in seconds, is renewed by the next `log` run: one day. */
const REFRESH_AGE = 24 * 60 * 60;

export interface WitnessRound {
  /** The checkpoint as written now, with every cosignature held. */
  note: string;
  /** The answers of the witnesses asked, in policy order: none when every one's cosignature is fresh. */
  answers: WitnessAnswer[];
}

/**
 * Asks `asked` (policy witnesses with a URL) that need to cosign the checkpoint `signed` (as on disk in `logDir`),
 * `previous` being the checkpoint it replaced in this run, if any; writes the checkpoint with what they gave.
 */
export async function witnessRound(options: {
  logDir: string;
  logKey: NoteKey;
  policy: LogPolicy;
  asked: readonly (PolicyWitness & { url: string })[];
  signed: string;
  previous: Uint8Array | undefined;
  now: number;
}): Promise<WitnessRound> {
  const { logDir, logKey, policy, asked, signed, now } = options;
  const note = parseNote(signed)!;
  const size = parseCheckpoint(note.text)!.size;
  const held = await heldCosignatures(note, policy.witnesses);
  const before = options.previous === undefined ? undefined : parseNote(options.previous);
  const previousSize = before && parseCheckpoint(before.text)?.size;
  const heldBefore = before === undefined ? new Map() : await heldCosignatures(before, policy.witnesses);
  const nowSeconds = Math.floor(now / 1000);
  const due = asked.filter((witness) => !freshEnough(held.get(witness.name), nowSeconds));
  if (due.length === 0) return { note: signed, answers: [] };
  const request = {
    signedCheckpoint: logSignedNote(note, logKey),
    text: note.text,
    size,
    tiles: fileTileStore(logDir),
    nowSeconds,
  };
  const answers = await Promise.all(
    due.map((witness) => {
      const oldSize = held.has(witness.name) ? size : heldBefore.has(witness.name) ? previousSize! : 0;
      return askWitness(witness, request, oldSize);
    }),
  );
  const cosignatures = new Map<string, HeldCosignature>(held);
  for (const answer of answers)
    if (answer.outcome === "cosigned")
      cosignatures.set(answer.witness.name, { line: answer.cosignature, timestamp: answer.timestamp });
  const written = cosignedNote(note, logKey, policy.witnesses, cosignatures);
  if (written !== signed) await writeFileAtomically(join(logDir, CHECKPOINT_FILE), written);
  return { note: written, answers };
}

function freshEnough(held: HeldCosignature | undefined, nowSeconds: number): boolean {
  return held !== undefined && held.timestamp >= nowSeconds - REFRESH_AGE && held.timestamp <= nowSeconds + CLOCK_SKEW;
}
