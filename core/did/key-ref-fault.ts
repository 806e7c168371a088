/**
 * Why a keyRef the relying party tried to resolve over the network was not resolved:
 * each is the receipt's `um:reason:key:<fault>` (docs/library.md, "Key resolution").
 * Resolution that was unavailable (core §1.6.4: no answer, or not the DID's) leaves
 * `keyRefResolution` "unresolved" and identity at Tier 0; an answer from the DID that
 * names no such key (DEFINITIVE_FAULTS) rejects, as a key that differs does: otherwise a
 * manifest could name any key of a DID's, even one it does not have, and carry its own.
 */
export type KeyRefFault =
  /** A DID method this evaluator does not resolve. */
  | "unsupported-method"
  /** A did:web whose id maps to no URL. */
  | "did-malformed"
  /** A redirect to a URL that is neither https: nor loopback http:. */
  | "insecure"
  /** A redirect to another origin than the DID's. */
  | "redirect-cross-origin"
  | "unreachable"
  | "timeout"
  /** An answer other than 200 (or 304 to a revalidation), 404 and 410 but. */
  | "http-status"
  /** 404 or 410: the DID has no document. */
  | "did-not-found"
  | "too-large"
  /** Not UTF-8, not JSON, or not an object. */
  | "document-malformed"
  | "document-id-mismatch"
  | "method-not-found"
  | "not-assertion-method"
  /** A verification method of a type not read here, or whose key is no Ed25519 key. */
  | "key-unsupported";

/** The DID answered, and what it said names no key for the keyRef: the manifest is rejected. */
export const DEFINITIVE_FAULTS: ReadonlySet<KeyRefFault> = new Set<KeyRefFault>([
  "did-not-found",
  "document-id-mismatch",
  "method-not-found",
  "not-assertion-method",
  "key-unsupported",
]);
