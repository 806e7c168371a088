/**
 * `verifyProof`: a manifest's body checked offline against its offline proof (a C2SP
 * tlog-proof, which a resolver with a log serves at the URL its answers' `Link` names),
 * under the relying party's log policy or log key: the body must be the latest state the
 * log records for its UMID, in a checkpoint the policy's quorum of witnesses cosigned
 * freshly. No request is made. The check (offline-proof.ts) is loaded on the first call,
 * one chunk apart from the common client, as the online log proof is.
 */
import type { ProofVerdict, VerifyProofOptions } from "./offline-proof.ts";

/**
 * Whether `proof` shows that `body` (the bytes the resolver served, exactly) is the latest logged state of the UMID
 * its `@id` names. Throws TypeError for a policy or key that is not one, as `resolve` does.
 */
export async function verifyProof(body: Uint8Array, proof: string, options: VerifyProofOptions): Promise<ProofVerdict> {
  const { verifyManifestProof } = await import("./offline-proof.ts");
  return verifyManifestProof(body, proof, options);
}
