/**
 * A witness's `add-checkpoint` (C2SP tlog-witness), decided: the checks in the spec's
 * order, each with its status (400 a body that is no request, 404 an unknown origin, 403
 * no trusted signature or a failing one, 409 an old size that is not the one last
 * cosigned, 422 a proof that does not hold, and, stricter than the spec, a checkpoint of the
 * size cosigned before with other extension lines), then the cosignature, timestamped. The check
 * against the latest cosigned checkpoint and the store of the new one are one step of the
 * WitnessStore (witness-store.ts), which persists it before this answers.
 */
import { parseCheckpoint } from "../tlog/checkpoint.ts";
import { cosign } from "../tlog/cosignature.ts";
import { EMPTY_TREE_ROOT, sameHash } from "../tlog/merkle.ts";
import { formatNote, parseNote } from "../tlog/note.ts";
import type { NoteKey } from "../tlog/note-keys.ts";
import { type NoteSigner, openNote } from "../tlog/note-signature.ts";
import { verifyConsistency } from "../tlog/proofs.ts";
import { parseAddCheckpoint } from "../tlog/witness-protocol.ts";
import type { WitnessStore } from "./witness-store.ts";

export interface Witness {
  /** The cosigner key: its key ID is of type 0x04 (tlog-cosignature). */
  signer: NoteSigner;
  /** The log keys trusted for each origin: a log's key name is its origin. */
  logs: ReadonlyMap<string, readonly NoteKey[]>;
  /** Now, in seconds since 1970 (a fraction is dropped): a cosignature's timestamp. */
  clock: () => number;
}

export type AddCheckpointAnswer =
  /** `cosignature`: the signature line, with its newline. */
  | { status: 200; origin: string; size: number; cosignature: string }
  | { status: 409; origin: string; size: number }
  | { status: 400 | 403 | 404 | 422; origin?: string; reason: string };

export async function addCheckpoint(
  body: Uint8Array,
  witness: Witness,
  store: WitnessStore,
): Promise<AddCheckpointAnswer> {
  const request = parseAddCheckpoint(body);
  if ("fault" in request) return { status: 400, reason: request.fault };
  const note = parseNote(request.checkpoint);
  const checkpoint = note && parseCheckpoint(note.text);
  if (note === undefined || checkpoint === undefined)
    return { status: 400, reason: "what follows the empty line is not a signed checkpoint" };
  const { origin, size, rootHash } = checkpoint;
  const keys = witness.logs.get(origin);
  if (keys === undefined) return { status: 404, origin, reason: "this witness does not witness that origin" };
  const opened = await openNote(request.checkpoint, keys);
  if (!opened.ok)
    return {
      status: 403,
      origin,
      reason:
        opened.reason === "bad-signature"
          ? "a signature by the log's key does not verify"
          : "no signature by a key this witness trusts for the origin",
    };
  const { oldSize, proof } = request;
  if (oldSize > size) return { status: 400, origin, reason: `old size ${oldSize} is past the checkpoint's ${size}` };
  return store.update<AddCheckpointAnswer>(origin, async (latest) => {
    const latestSize = latest?.size ?? 0;
    if (oldSize !== latestSize) return { result: { status: 409, origin, size: latestSize } };
    if (size === 0 && !sameHash(rootHash, EMPTY_TREE_ROOT))
      return { result: { status: 422, origin, reason: "a checkpoint of size 0 must have the empty tree's root" } };
    if (oldSize === 0 && proof.length > 0)
      return { result: { status: 422, origin, reason: "a proof from size 0, where none is needed" } };
    const oldRoot = latest?.rootHash ?? EMPTY_TREE_ROOT;
    if (!verifyConsistency(oldSize, size, proof, oldRoot, rootHash))
      return {
        result: {
          status: 422,
          origin,
          reason:
            oldSize === size
              ? `the checkpoint has the size ${size} cosigned before, with another root hash`
              : `the proof does not show size ${size} extends size ${oldSize}`,
        },
      };
    // Stricter than tlog-witness, which compares roots only: one text per size, so that what a log's extension lines
    // commit to (this project's latest map) is as witnessed as its tree. A log signs one checkpoint per size.
    if (latest !== undefined && oldSize === size && parseNote(latest.note)?.text !== note.text)
      return {
        result: {
          status: 422,
          origin,
          reason: `the checkpoint has the size ${size} and root cosigned before, with other extension lines`,
        },
      };
    const cosignature = await cosign(note.text, witness.signer, Math.floor(witness.clock()));
    const verified = note.signatures.filter((line) =>
      opened.verifiedBy.some((key) => key.name === line.keyName && key.keyId === line.keyId),
    );
    const served = formatNote({ text: note.text, signatures: [...verified, cosignature] });
    const line = served.slice(served.lastIndexOf("\n\u2014 ") + 1);
    return {
      next: { size, rootHash, note: served },
      result: { status: 200, origin, size, cosignature: line },
    };
  });
}
