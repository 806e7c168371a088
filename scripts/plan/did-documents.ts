/**
 * The did:web documents the build publishes (check/did-web-documents.ts), as the table the
 * edge reads (edge/did-documents.ts): each document as check made it from the pinned keys,
 * by the code `keygen` prints a verification method with, and read back with the relying
 * party's reader; its ETag computed here, once. The same documents, the same bytes.
 */
import { utf8 } from "../../core/base64url.ts";
import { DID_DOCUMENTS_FORMAT, DID_DOCUMENTS_PATH, type DidDocumentsTable } from "../../edge/did-documents.ts";
import { bodyEtag } from "../body-etag.ts";
import type { DidWebDocument } from "../check/did-web-documents.ts";
import type { OutputFile } from "./output-file.ts";

/** The table of `documents` (in path order), or undefined when there is none to publish. */
export function didDocumentsFile(documents: readonly DidWebDocument[]): OutputFile | undefined {
  if (documents.length === 0) return undefined;
  const table: DidDocumentsTable = { format: DID_DOCUMENTS_FORMAT, documents: {} };
  // Each body as check made it and read it back (check/did-web-documents.ts).
  for (const { path, body } of documents) table.documents[path] = { etag: bodyEtag(utf8(body)), body };
  return { path: DID_DOCUMENTS_PATH, bytes: utf8(`${JSON.stringify(table)}\n`) };
}
