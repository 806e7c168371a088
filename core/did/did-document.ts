/**
 * DID documents whose keys are Ed25519 Multikeys (DID Core §5; W3C Controlled
 * Identifiers, Multikey): the verification method `keygen` prints for a did:web keyRef,
 * and the document `build` publishes for a did:web on the resolver's own host, made by
 * the same code.
 */
import { ed25519Multibase } from "./did-key.ts";

const DID_DOCUMENT_CONTEXT = ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"];

export interface MultikeyMethod {
  id: string;
  type: "Multikey";
  controller: string;
  publicKeyMultibase: string;
}

export interface MultikeyDidDocument {
  "@context": string[];
  id: string;
  verificationMethod: MultikeyMethod[];
  assertionMethod: string[];
}

/** The verification method of `keyRef` (a DID URL, `DID#fragment`) for a raw 32-byte Ed25519 public key. */
export function multikeyMethod(keyRef: string, publicKey: Uint8Array): MultikeyMethod {
  const fragment = keyRef.indexOf("#");
  return {
    id: keyRef,
    type: "Multikey",
    controller: fragment === -1 ? keyRef : keyRef.slice(0, fragment),
    publicKeyMultibase: ed25519Multibase(publicKey),
  };
}

/**
 * `did`'s document with a verification method per key, each also under `assertionMethod`
 * (what a Profile A signature is: core §1.6.4), in keyRef order: the same keys, the same
 * document.
 */
export function multikeyDidDocument(
  did: string,
  keys: readonly { keyRef: string; publicKey: Uint8Array }[],
): MultikeyDidDocument {
  const methods = keys
    .map(({ keyRef, publicKey }) => multikeyMethod(keyRef, publicKey))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    "@context": DID_DOCUMENT_CONTEXT,
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  };
}
