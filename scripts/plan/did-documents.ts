/**
 * The did:web documents the build publishes (check/did-web-documents.ts), as the table the
 * edge reads (edge/did-documents.ts): each document made from the pinned keys by the code
 * `keygen` prints a verification method with, its ETag computed here, once. The same
 * documents, the same bytes.
 */
import { utf8 } from "../../core/base64url.ts";
import { spkiPublicKey } from "../../core/crypto/profile-a.ts";
import { multikeyDidDocument } from "../../core/did/did-document.ts";
import { DID_DOCUMENTS_FORMAT, DID_DOCUMENTS_PATH, type DidDocumentsTable } from "../../edge/did-documents.ts";
import { bodyEtag } from "../body-etag.ts";
import type { DidWebDocument } from "../check/did-web-documents.ts";
import type { OutputFile } from "./output-file.ts";

/** The table of `documents` (in path order), or undefined when there is none to publish. */
export function didDocumentsFile(documents: readonly DidWebDocument[]): OutputFile | undefined {
  if (documents.length === 0) return undefined;
  const table: DidDocumentsTable = { format: DID_DOCUMENTS_FORMAT, documents: {} };
  for (const { did, path, keys } of documents) {
    // A pin is a checked Ed25519 SubjectPublicKeyInfo (check/keys.ts): it has a key.
    const methods = keys.map(({ keyRef, spki }) => ({ keyRef, publicKey: spkiPublicKey(spki)! }));
    const body = JSON.stringify(multikeyDidDocument(did, methods));
    table.documents[path] = { etag: bodyEtag(utf8(body)), body };
  }
  return { path: DID_DOCUMENTS_PATH, bytes: utf8(`${JSON.stringify(table)}\n`) };
}
