/**
 * What Signature Profile A signs: the JCS canonical form of the manifest without
 * `signature` and, from v0.4 on (spec 5.3, core §1.6.3), without `presentationProof` and
 * `postQuantumSignature` too. v0.2 and v0.3 exclude `signature` alone: a member that
 * their signers covered must stay covered. Pure, so that the build (Node's Ed25519) and
 * the lookup page (WebCrypto in the browser) sign and verify the very same text.
 */
import { canonicalMembers, joinMembers, type CanonicalMembers } from "./jcs.ts";

export const PROFILE_A = { algorithm: "Ed25519", canonicalization: "JCS-RFC8785" } as const;
export const UNSIGNED_MEMBERS: ReadonlySet<string> = new Set([
  "signature",
  "presentationProof",
  "postQuantumSignature",
]);
const UNSIGNED_BEFORE_V04: ReadonlySet<string> = new Set(["signature"]);

/** The members a manifest's signature does not cover, by its `manifestVersion`. */
function unsignedMembers(manifest: Record<string, unknown>): ReadonlySet<string> {
  return manifest.manifestVersion === "0.2" || manifest.manifestVersion === "0.3"
    ? UNSIGNED_BEFORE_V04
    : UNSIGNED_MEMBERS;
}

export function signingInputText(
  manifest: Record<string, unknown>,
  members: CanonicalMembers = canonicalMembers(manifest),
): string {
  const unsigned = unsignedMembers(manifest);
  return joinMembers(members, (key) => !unsigned.has(key));
}
