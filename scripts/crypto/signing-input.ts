/**
 * What Signature Profile A signs (spec 5.3): the JCS canonical form of the manifest
 * without `signature`, `presentationProof` and `postQuantumSignature`. Pure, so that the
 * build (Node's Ed25519) and the lookup page (WebCrypto in the browser) sign and verify
 * the very same text.
 */
import { canonicalize } from "./jcs.ts";

export const PROFILE_A = { algorithm: "Ed25519", canonicalization: "JCS-RFC8785" } as const;
export const UNSIGNED_MEMBERS: ReadonlySet<string> = new Set(["signature", "presentationProof", "postQuantumSignature"]);

export function signingInputText(manifest: Record<string, unknown>): string {
  const signed: Record<string, unknown> = {};
  for (const key of Object.keys(manifest)) if (!UNSIGNED_MEMBERS.has(key)) signed[key] = manifest[key];
  return canonicalize(signed);
}
