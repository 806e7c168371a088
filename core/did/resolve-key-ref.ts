/**
 * Resolving a signature's keyRef without the network (core §1.6.4, step 4), for the DID
 * methods whose DID is the key: did:key and did:jwk, Ed25519 only. Every other keyRef
 * needs a resolver (did:web fetches a document), so it is "unsupported" here.
 */
import { didJwkEd25519 } from "./did-jwk.ts";
import { didKeyEd25519 } from "./did-key.ts";
import type { DidUrl, LocalKey } from "./local-key.ts";

const METHODS: Record<string, (url: DidUrl) => LocalKey> = { key: didKeyEd25519, jwk: didJwkEd25519 };

/** `did:<method>:<id>[#<fragment>]`, no path or query: a method that allows them is not read here. */
const DID_URL = /^did:([a-z0-9]+):([^#]*)(?:#(.*))?$/s;

export function resolveKeyRefLocally(keyRef: string): LocalKey {
  const match = DID_URL.exec(keyRef);
  if (match === null) return { kind: "unsupported" };
  const method = match[1]!;
  const id = match[2]!;
  const fragment = match[3];
  const resolve = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (resolve === undefined) return { kind: "unsupported", method };
  if (!/^[A-Za-z0-9._-]+$/.test(id))
    return { kind: "malformed", method, reason: "its method-specific id is empty or holds a path, query or colon" };
  return resolve({ id, ...(fragment !== undefined && { fragment }) });
}
