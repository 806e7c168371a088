/**
 * Resolving a signature's keyRef (core §1.6.4, step 4). Without the network, the DID
 * methods whose DID is the key: did:key and did:jwk, Ed25519 only. Every other keyRef
 * needs a resolver, so it is "unsupported" there; with the network, did:web fetches its
 * document (did-web.ts).
 */
import { quoted } from "../excerpt.ts";
import { didJwkEd25519 } from "./did-jwk.ts";
import { didKeyEd25519 } from "./did-key.ts";
import { resolveDidWebKey, type DidWebFetch, type RemoteKey } from "./did-web.ts";
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

/**
 * Resolving a keyRef that the DID does not resolve by itself: did:web over the network
 * (did-web.ts); any other method is not resolved here, and says which it is.
 */
export function resolveKeyRefOnline(keyRef: string, how: DidWebFetch): Promise<RemoteKey> {
  if (keyRef.startsWith("did:web:")) return resolveDidWebKey(keyRef, how);
  const method = DID_URL.exec(keyRef)?.[1];
  return Promise.resolve({
    fault: "unsupported-method",
    reason:
      `keyRef ${quoted(keyRef)} ${method === undefined ? "is not a DID URL" : `is a did:${method}`}, which this ` +
      `evaluator does not resolve (it resolves did:key, did:jwk and did:web)`,
  });
}
