/**
 * What resolving a keyRef without the network gives (core §1.6.4, step 4): the raw
 * Ed25519 public key a did:key or did:jwk names, or why that DID names none, or that the
 * keyRef's method needs a resolver this code does not have (not an error: the evaluator
 * then records "unresolved").
 */
export type LocalKey =
  | { kind: "resolved"; publicKey: Uint8Array }
  | { kind: "malformed"; method: string; reason: string }
  /** `method` is undefined when the keyRef is not a DID URL at all. */
  | { kind: "unsupported"; method?: string };

/** A DID URL split at its fragment, the part a method reads and the key it names. */
export interface DidUrl {
  /** The method-specific id, everything between `did:<method>:` and `#`. */
  id: string;
  /** The fragment without `#`, or undefined when there is none. */
  fragment?: string;
}
