/**
 * Why a keyRef the relying party tried to resolve over the network was not resolved:
 * each is the receipt's `um:reason:key:<fault>` (docs/library.md, "What a receipt says").
 * None rejects the manifest (core §1.6.4: unavailable resolution leaves
 * `keyRefResolution` "unresolved" and identity at Tier 0); a resolved key that differs
 * from the embedded one does, as `signature/keyref-mismatch`.
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
  /** An answer other than 200 (or 304 to a revalidation). */
  | "http-status"
  | "too-large"
  /** Not UTF-8, not JSON, or not an object. */
  | "document-malformed"
  | "document-id-mismatch"
  | "method-not-found"
  | "not-assertion-method"
  /** A verification method of a type not read here, or whose key is no Ed25519 key. */
  | "key-unsupported";
