/**
 * A manifest's body checked against a latest proof (core/tlog/latest-proof.ts), offline:
 * no request is made. The proof's checkpoint must stand under the policy (a policy log's
 * signature, a quorum of fresh cosignatures: openWitnessedCheckpoint), its entry must be
 * in the checkpoint's tree at its index, the bucket in its extra data must be the one the
 * checkpoint's latest map commits to and name that index as the UMID's latest, and the
 * entry must record this body: so a superseded body, validly signed and once logged, is
 * refused (log/not-latest), as `resolve` refuses it online.
 */
import { utf8 } from "../base64url.ts";
import type { Warning } from "../evaluate/receipt.ts";
import { parseJson } from "../json/strict-json.ts";
import { latestEntryIn, parseLatestLine } from "../tlog/latest-map.ts";
import { type LogEntry, parseLogEntry } from "../tlog/log-entry.ts";
import type { LogPolicy } from "../tlog/log-policy.ts";
import { leafHash } from "../tlog/merkle.ts";
import { verifyInclusion } from "../tlog/proofs.ts";
import { parseTlogProof } from "../tlog/tlog-proof.ts";
import {
  openWitnessedCheckpoint,
  type WitnessCount,
  type WitnessedOptions,
  witnessedRefusal,
} from "../tlog/witnessed-checkpoint.ts";
import { answerRefusal } from "./latest-logged.ts";
import { checkpointRefusal, logRefusal } from "./log-refusal.ts";
import { clientLogPolicy } from "./client-log-policy.ts";

export type OfflineProof =
  | { ok: true; entry: LogEntry; index: number; size: number; witnessed: WitnessCount }
  | { ok: false; refusal: Warning };

/** A bucket file and an entry: two levels of objects, a bucket's proof of up to 24 hashes. */
const EXTRA_SHAPE = { maxDepth: 3, maxArrayItems: 24 };

/** Whether `proofText` proves that `body` is the latest state the policy's log records for `umid`. */
export async function verifyOfflineProof(
  proofText: string,
  umid: string,
  body: Uint8Array,
  policy: LogPolicy,
  options: WitnessedOptions,
): Promise<OfflineProof> {
  const proof = parseTlogProof(proofText);
  if ("fault" in proof) return logRefusal("log/unproven", `the proof is not a tlog-proof: ${proof.fault}`);
  const witnessed = await openWitnessedCheckpoint(proof.checkpoint, policy, options);
  if (!witnessed.ok)
    return checkpointRefusal(witnessed, `the proof's checkpoint ${witnessedRefusal(witnessed, policy, options)}`);
  const { size, rootHash, extensions } = witnessed.checkpoint;
  const extra = proof.extra && parseJson(new TextDecoder().decode(proof.extra), EXTRA_SHAPE);
  const value = extra?.ok ? (extra.value as Record<string, unknown>) : undefined;
  const entryText = value?.entry;
  if (typeof entryText !== "string" || typeof value?.bucket !== "object" || value.bucket === null)
    return logRefusal("log/unproven", "the proof's extra data is not a bucket and an entry");
  const entryBytes = utf8(entryText);
  const entry = parseLogEntry(entryBytes);
  if (entry?.umid !== umid) return logRefusal("log/unproven", `the proof's entry is not an entry of ${umid}`);
  if (!verifyInclusion(leafHash(entryBytes), proof.index, size, proof.proof, rootHash))
    return logRefusal("log/unproven", `the proof's entry is not entry ${proof.index} of the checkpoint's tree`);
  const commitment = parseLatestLine(extensions);
  const latest = commitment && latestEntryIn(utf8(JSON.stringify(value.bucket)), umid, commitment);
  if (!latest?.ok)
    return logRefusal("log/unproven", "the proof's bucket is not the one the checkpoint's latest map commits to");
  if (latest.index !== proof.index)
    return logRefusal(
      "log/not-latest",
      `entry ${proof.index} is not the latest entry of ${umid}: the checkpoint's latest map names entry ${latest.index}`,
    );
  const { cosigned, of } = witnessed;
  const logged = { ok: true as const, entry, index: proof.index, size, witnessed: { cosigned, of } };
  const refusal = answerRefusal(logged, { kind: "body", body });
  return refusal === undefined ? logged : { ok: false, refusal };
}

export interface VerifyProofOptions {
  /** A C2SP tlog-policy: the log, the witnesses and the quorum. Or `logKey`, a quorum of no witness. */
  logPolicy?: string;
  logKey?: string;
  /** Seconds a cosignature counts for; 30 days if not given. */
  maxCosignatureAge?: number;
  /** The clock the cosignatures' age is taken at; now if not given. */
  now?: Date;
}

export type ProofVerdict =
  /** `index`: the entry's, of `size`; `witnessed`: of the witnesses the quorum counts, how many cosigned. */
  | { ok: true; umid: string; index: number; size: number; witnessed: WitnessCount }
  /** `refusal.rule`: log/not-latest, log/unproven, log/unwitnessed or log/stale-cosignature. */
  | { ok: false; refusal: Warning };

/** The client's verifyProof (verify-proof.ts), loaded with the check: the policy read, the UMID taken, the proof checked. */
export async function verifyManifestProof(
  body: Uint8Array,
  proof: string,
  options: VerifyProofOptions,
): Promise<ProofVerdict> {
  const { policy, maxCosignatureAge } = clientLogPolicy(options);
  const umid = manifestId(body);
  if (umid === undefined) return logRefusal("log/unproven", "the body is no manifest with an @id: no UMID to prove");
  const now = (options.now ?? new Date()).getTime();
  const verdict = await verifyOfflineProof(proof, umid, body, policy, { now, maxAge: maxCosignatureAge });
  return verdict.ok
    ? { ok: true, umid, index: verdict.index, size: verdict.size, witnessed: verdict.witnessed }
    : verdict;
}

/** The `@id` of the manifest in `body`, if it is JSON with one: whatever else is wrong with it, evaluation says. */
export function manifestId(body: Uint8Array): string | undefined {
  try {
    const id: unknown = JSON.parse(new TextDecoder().decode(body))["@id"];
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
