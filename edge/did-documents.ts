/**
 * The did:web documents the resolver serves (a did:web on its own host, whose keys
 * `_keys.json` pins: scripts/check/did-web-documents.ts), as the build stores them: one
 * small table, `{"format": DID_DOCUMENTS_FORMAT, "documents": {PATH: {"etag", "body"}}}`,
 * keyed by the request path the handler sees (`/.well-known/did.json`,
 * `/users/alice/did.json`), each body the document's exact text and its ETag the build's
 * digest of it. The same bytes are the file `DID_DOCUMENTS_PATH` of the static output and
 * the value of the Workers KV key `DID_DOCUMENTS_KV_KEY`, which no UMID's key can be
 * (those start `um:` or `um-sha256:`). A publisher pins a few keys, so the table is read
 * whole, once; with no did:web document to serve there is no table.
 */
import { DocumentTable, type DocumentRecord, type DocumentTableFile } from "./document-table.ts";

export const DID_DOCUMENTS_PATH = "did-documents.json";
export const DID_DOCUMENTS_KV_KEY = "did-documents";
export const DID_DOCUMENTS_FORMAT = 1;
/** Every path the did:web method maps a DID to ends so (did:web, "Read (Resolve)"). */
export const DID_DOCUMENT_NAME = "/did.json";

export interface DidDocumentsTable extends DocumentTableFile {
  format: typeof DID_DOCUMENTS_FORMAT;
}

/** A did:web document as served (edge/document-table.ts). */
export type DidDocumentRecord = DocumentRecord;

/** The table of one deploy (edge/document-table.ts). */
export class DidDocuments extends DocumentTable {
  constructor() {
    super(DID_DOCUMENTS_PATH, DID_DOCUMENTS_FORMAT);
  }
}
