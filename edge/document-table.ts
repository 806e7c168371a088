/**
 * A small table of documents the build publishes whole, keyed by the request path the handler sees: one file of the
 * static output (and one Workers KV value), `{"format": N, "documents": {PATH: {"etag", "body"}}}`, each body the
 * document's exact text and its ETag the build's digest of it. A table is read whole, once per deploy, and each
 * body checked against its ETag then: a body that is not the one built is `corrupt`, answered 500.
 */
import { etagOf } from "./etag.ts";

export interface DocumentTableFile {
  format: number;
  documents: Record<string, { etag: string; body: string }>;
}

/** A document as served: its bytes with their ETag, or `corrupt` when the bytes are not those the build recorded. */
export type DocumentRecord = { kind: "document"; etag: string; body: Uint8Array<ArrayBuffer> } | { kind: "corrupt" };

/** The documents of one deploy's table, read at first use and kept; a read that fails is not kept, and is retried. */
export class DocumentTable {
  #table: Promise<Map<string, DocumentRecord>> | undefined;

  /** `name`: the table's file, for messages; `format`: the one it must have. */
  constructor(
    readonly name: string,
    readonly format: number,
  ) {}

  /** The document served at `path`; `read` gives the table's bytes, or undefined when the build wrote none. */
  async get(path: string, read: () => Promise<Uint8Array | undefined>): Promise<DocumentRecord | undefined> {
    if (this.#table === undefined) {
      const table = read().then((bytes) => (bytes === undefined ? new Map() : this.#documents(bytes)));
      this.#table = table;
      table.catch(() => {
        if (this.#table === table) this.#table = undefined;
      });
    }
    return (await this.#table).get(path);
  }

  async #documents(bytes: Uint8Array): Promise<Map<string, DocumentRecord>> {
    const table = JSON.parse(new TextDecoder().decode(bytes)) as DocumentTableFile;
    if (table.format !== this.format)
      throw new Error(`${this.name} has format ${table.format}, expected ${this.format}`);
    const documents = new Map<string, DocumentRecord>();
    for (const [path, { etag, body }] of Object.entries(table.documents)) {
      const bytes = new TextEncoder().encode(body) as Uint8Array<ArrayBuffer>;
      if ((await etagOf(bytes)) === etag) documents.set(path, { kind: "document", etag, body: bytes });
      else {
        console.error(`manifest-resolver: the document at ${path} in ${this.name} is not the one that was built`);
        documents.set(path, { kind: "corrupt" });
      }
    }
    return documents;
  }
}
