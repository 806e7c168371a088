/**
 * `verifyProof`: a manifest's body checked offline against its offline proof (a C2SP
 * tlog-proof, which a resolver with a log serves at the URL its answers' `Link` names),
 * under the relying party's log policy or log key: the body must be the latest state the
 * log records for its UMID, in a checkpoint the policy's quorum of witnesses cosigned
 * freshly. No request is made. The check (offline-proof.ts) is loaded on the first call,
 * apart from the common client, as the online log proof is.
 */
import type { Warning } from "../evaluate/receipt.ts";
import type { WitnessCount } from "../tlog/witnessed-checkpoint.ts";

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

/**
 * Whether `proof` shows that `body` (the bytes the resolver served, exactly) is the latest logged state of the UMID
 * its `@id` names. Throws TypeError for a policy or key that is not one, as `resolve` does.
 */
export async function verifyProof(body: Uint8Array, proof: string, options: VerifyProofOptions): Promise<ProofVerdict> {
  const [{ clientLogPolicy }, { verifyOfflineProof }, { logRefusal }] = await Promise.all([
    import("./client-log-policy.ts"),
    import("./offline-proof.ts"),
    import("./log-refusal.ts"),
  ]);
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
