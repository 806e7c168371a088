/**
 * The did:web documents the resolver publishes: when UM_RESOLVER_URL's host (with its
 * port, compared as URL hosts are: case-insensitively) is the host of a did:web keyRef
 * pinned in `_keys.json`, the build publishes that DID's document, listing every key
 * pinned under it, so that a relying party resolving the keyRef finds the pinned key
 * (core §1.6.4, step 4) with no step of the publisher's. A did:web maps to a path from
 * its origin's root (did:web, "Read (Resolve)"), and the resolver answers only below
 * UM_RESOLVER_URL's path: a document outside it is not published, with a warning. A
 * keyRef on another host publishes nothing; a keyRef that is not a did:web URL with a
 * fragment is not a verification method's id, and publishes nothing either. Each document
 * is read back with the relying party's reader (core/did/document-key.ts, its limits
 * included) before it is published: one it would refuse is an error.
 */
import { spkiPublicKey } from "../../core/crypto/profile-a.ts";
import { multikeyDidDocument } from "../../core/did/did-document.ts";
import { keyInDidDocumentText } from "../../core/did/document-key.ts";
import { didWebDocumentUrl } from "../../core/did/did-web-url.ts";
import { quoted } from "../../core/excerpt.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { PinnedKey } from "./keys.ts";

export interface DidWebDocument {
  did: string;
  /** Where the resolver is asked for it: the document URL's path, from UM_RESOLVER_URL's path. */
  path: string;
  /** The keys pinned under the DID, in keyRef order. */
  keys: { keyRef: string; spki: string }[];
  /** The document the build publishes, as read back by the relying party's reader before it is. */
  body: string;
}

/** The documents to publish, in path order, and what keeps one from being published. */
export function didWebDocuments(
  pinned: readonly PinnedKey[],
  resolverUrl: string,
): { documents: DidWebDocument[]; diagnostics: Diagnostic[] } {
  const documents = new Map<string, Omit<DidWebDocument, "body"> & { where: PinnedKey["where"] }>();
  const diagnostics: Diagnostic[] = [];
  if (resolverUrl === "") return { documents: [], diagnostics };
  const resolver = new URL(resolverUrl);
  const base = resolver.pathname.endsWith("/") ? resolver.pathname : `${resolver.pathname}/`;
  const outside = new Set<string>();
  for (const { keyRef, spki, where } of pinned) {
    const fragment = keyRef.indexOf("#");
    if (fragment === -1) continue;
    const did = keyRef.slice(0, fragment);
    const located = didWebDocumentUrl(did);
    if ("fault" in located || located.url.host !== resolver.host) continue;
    const { url } = located;
    if (!url.pathname.startsWith(base)) {
      if (!outside.has(did))
        diagnostics.push(
          diagnostic(
            "keys/did-web-outside-resolver",
            where,
            `${quoted(did)} is on the resolver's host, but its did.json (${url.href}) is outside ` +
              `UM_RESOLVER_URL's path (${resolver.href}), where the resolver answers: it is not published`,
          ),
        );
      outside.add(did);
      continue;
    }
    const path = `/${url.pathname.slice(base.length)}`;
    const document = documents.get(path);
    if (document === undefined) documents.set(path, { did, path, keys: [{ keyRef, spki }], where });
    else if (document.did === did) document.keys.push({ keyRef, spki });
    else
      diagnostics.push(
        diagnostic(
          "keys/did-web-clash",
          where,
          `${quoted(did)} has its did.json at ${url.href}, as ${quoted(document.did)} ` +
            `(${document.where.file}:${document.where.line}:${document.where.column}) has: a document has one id`,
        ),
      );
  }
  const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const published: DidWebDocument[] = [];
  for (const { did, path, keys, where } of [...documents.values()].sort((a, b) => byCodeUnits(a.path, b.path))) {
    keys.sort((a, b) => byCodeUnits(a.keyRef, b.keyRef));
    // A pin is a checked Ed25519 SubjectPublicKeyInfo (keys.ts): it has a key.
    const methods = keys.map(({ keyRef, spki }) => ({ keyRef, publicKey: spkiPublicKey(spki)! }));
    const body = JSON.stringify(multikeyDidDocument(did, methods));
    const unread = unreadable(body, did, methods);
    if (unread === undefined) published.push({ did, path, keys, body });
    else
      diagnostics.push(
        diagnostic(
          "keys/did-web-unreadable",
          where,
          `the did.json the build would publish for ${quoted(did)} (${keys.length} keys) is one relying parties ` +
            `refuse: ${unread}`,
        ),
      );
  }
  return { documents: published, diagnostics };
}

/** Why a relying party's reader (core/did/document-key.ts) does not give each key its pinned key in `body`. */
function unreadable(
  body: string,
  did: string,
  methods: readonly { keyRef: string; publicKey: Uint8Array }[],
): string | undefined {
  for (const { keyRef, publicKey } of methods) {
    const read = keyInDidDocumentText(body, did, keyRef);
    if ("fault" in read) return read.reason;
    if (read.publicKey.some((byte, i) => byte !== publicKey[i])) return `it gives ${quoted(keyRef)} another key`;
  }
  return undefined;
}
