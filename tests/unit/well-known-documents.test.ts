/**
 * The status lists and discovery document as the edge reads them (issue 27; edge/well-known-documents.ts,
 * edge/document-table.ts): which paths name one, a table read once and each body checked against the ETag the build
 * recorded, a body that is not the one built answered 500, a path the table lacks 404, and 304 for an ETag.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RESOLVERS_PATH, STATUS_LIST_PREFIX } from "../../core/umid-path.ts";
import { etagOf } from "../../edge/etag.ts";
import { answer } from "../../edge/handler.ts";
import type { RecordStore } from "../../edge/records.ts";
import { WellKnownDocuments, wellKnownKind } from "../../edge/well-known-documents.ts";

const LIST = `${STATUS_LIST_PREFIX}/00c0ffee00c0ffee`;

/** A store whose only documents are the table `documents` makes; `reads` counts the table's reads. */
async function storeOf(documents: Record<string, string>, altered: string[] = []) {
  const table: Record<string, { etag: string; body: string }> = {};
  for (const [path, body] of Object.entries(documents))
    table[path] = {
      etag: await etagOf(new TextEncoder().encode(body)),
      body: altered.includes(path) ? `${body} ` : body,
    };
  const bytes = new TextEncoder().encode(JSON.stringify({ format: 1, documents: table }));
  const wellKnown = new WellKnownDocuments();
  const reads = { count: 0 };
  const store: RecordStore = {
    get: async () => undefined,
    didDocument: async () => undefined,
    logFile: async () => undefined,
    wellKnownDocument: (path) =>
      wellKnown.get(path, async () => {
        reads.count++;
        return bytes;
      }),
  };
  return { store, reads, etag: table[LIST]?.etag };
}

const get = (store: RecordStore, path: string, ifNoneMatch?: string) =>
  answer(
    {
      method: "GET",
      url: `https://resolver.test${path}`,
      headers: new Headers(ifNoneMatch ? { "If-None-Match": ifNoneMatch } : {}),
    },
    store,
  );
const header = (headers: [string, string][], name: string) => headers.find(([n]) => n === name)?.[1];

describe("the status lists and discovery document at the edge", () => {
  it("names a list under the status-list prefix and the discovery document; nothing else", () => {
    assert.equal(wellKnownKind(LIST), "status-list");
    assert.equal(wellKnownKind(RESOLVERS_PATH), "resolvers");
    for (const path of [STATUS_LIST_PREFIX, "/.well-known/um-resolvers/", "/urn%3Aa", "/.well-known/did.json"])
      assert.equal(wellKnownKind(path), undefined, path);
  });

  it("serves each document with its media type, 300 s and its ETag, reading the table once; 304 for the ETag", async () => {
    const { store, reads, etag } = await storeOf({ [LIST]: '{"id":"list"}', [RESOLVERS_PATH]: '{"peers":[]}' });
    const list = await get(store, LIST);
    assert.equal(list.status, 200);
    assert.equal(header(list.headers, "Content-Type"), "application/vc+ld+json");
    assert.equal(header(list.headers, "Cache-Control"), "public, max-age=300");
    assert.equal(header(list.headers, "ETag"), etag);
    assert.equal(new TextDecoder().decode(list.body!), '{"id":"list"}');
    const resolvers = await get(store, RESOLVERS_PATH);
    assert.equal(header(resolvers.headers, "Content-Type"), "application/json");
    const again = await get(store, LIST, etag);
    assert.equal(again.status, 304);
    assert.equal(header(again.headers, "Content-Type"), "application/vc+ld+json");
    assert.equal(reads.count, 1);
  });

  it("answers 404 for a list it does not have, and 500 for a body that is not the one built", async () => {
    const { store } = await storeOf({ [LIST]: '{"id":"list"}' }, [LIST]);
    assert.equal((await get(store, `${STATUS_LIST_PREFIX}/ffff`)).status, 404);
    assert.equal((await get(store, RESOLVERS_PATH)).status, 404);
    assert.equal((await get(store, LIST)).status, 500);
  });
});
