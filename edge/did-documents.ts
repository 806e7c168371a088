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
import { etagOf } from "./etag.ts";

export const DID_DOCUMENTS_PATH = "did-documents.json";
export const DID_DOCUMENTS_KV_KEY = "did-documents";
export const DID_DOCUMENTS_FORMAT = 1;
/** Every path the did:web method maps a DID to ends so (did:web, "Read (Resolve)"). */
export const DID_DOCUMENT_NAME = "/did.json";

export interface DidDocumentsTable {
  format: typeof DID_DOCUMENTS_FORMAT;
  documents: Record<string, { etag: string; body: string }>;
}

/** A document as served: its bytes with their ETag, or `corrupt` when the bytes are not those the build recorded. */
export type DidDocumentRecord = { kind: "document"; etag: string; body: Uint8Array<ArrayBuffer> } | { kind: "corrupt" };

/** The documents a table's bytes hold, by path, each body checked against its ETag. */
async function readDidDocuments(bytes: Uint8Array): Promise<Map<string, DidDocumentRecord>> {
  const table = JSON.parse(new TextDecoder().decode(bytes)) as DidDocumentsTable;
  if (table.format !== DID_DOCUMENTS_FORMAT)
    throw new Error(`${DID_DOCUMENTS_PATH} has format ${table.format}, expected ${DID_DOCUMENTS_FORMAT}`);
  const documents = new Map<string, DidDocumentRecord>();
  for (const [path, { etag, body }] of Object.entries(table.documents)) {
    const bytes = new TextEncoder().encode(body) as Uint8Array<ArrayBuffer>;
    if ((await etagOf(bytes)) === etag) documents.set(path, { kind: "document", etag, body: bytes });
    else {
      console.error(`manifest-resolver: the did:web document at ${path} is not the one that was built`);
      documents.set(path, { kind: "corrupt" });
    }
  }
  return documents;
}

/** The table of one deploy, read at first use and kept; a read that fails is not kept, and is tried again. */
export class DidDocuments {
  #table: Promise<Map<string, DidDocumentRecord>> | undefined;

  /** The document served at `path`; `read` gives the table's bytes, or undefined when the build wrote none. */
  async get(path: string, read: () => Promise<Uint8Array | undefined>): Promise<DidDocumentRecord | undefined> {
    if (this.#table === undefined) {
      const table = read().then((bytes) => (bytes === undefined ? new Map() : readDidDocuments(bytes)));
      this.#table = table;
      table.catch(() => {
        if (this.#table === table) this.#table = undefined;
      });
    }
    return (await this.#table).get(path);
  }
}
