/**
 * What Signature Profile A signs (spec 5.3): the JCS canonical form of the manifest
 * without `signature`, `presentationProof` and `postQuantumSignature`. Pure, so that the
 * build (Node's Ed25519) and the lookup page (WebCrypto in the browser) sign and verify
 * the very same text.
 */
import { canonicalMembers, joinMembers, type CanonicalMembers } from "./jcs.ts";

export const PROFILE_A = { algorithm: "Ed25519", canonicalization: "JCS-RFC8785" } as const;
export const UNSIGNED_MEMBERS: ReadonlySet<string> = new Set(["signature", "presentationProof", "postQuantumSignature"]);

export function signingInputText(manifest: Record<string, unknown>, members: CanonicalMembers = canonicalMembers(manifest)): string {
  return joinMembers(members, (key) => !UNSIGNED_MEMBERS.has(key));
}
