/**
 * A RecordStore over Workers KV (see edge/records.ts for the layout), for the Worker of a
 * registry too large for static assets. Answers are kept in a bounded in-memory cache, so
 * a warm request costs no KV read; a body is checked against its ETag before it is kept,
 * and a status gets the ETag of its document then (KV metadata has no room for it). Every
 * other file of the output is one more pair, keyed by its name (the route table's shards and the documents they
 * route: routed-documents.ts).
 */
import { etagOf } from "./etag.ts";
import { LruCache } from "../core/lru-cache.ts";
import {
  isServableLocation,
  isStatusEntry,
  kvKey,
  type KvMetadata,
  type RecordStore,
  type ResolverRecord,
} from "./records.ts";
import { statusDocumentBytes } from "./responses.ts";
import { RoutedDocuments } from "./routed-documents.ts";

/** The part of a KV namespace binding this store uses. */
export interface KvNamespace {
  getWithMetadata<M>(key: string, type: "arrayBuffer"): Promise<{ value: ArrayBuffer | null; metadata: M | null }>;
}

const CACHE_BYTES = 32 * 1024 * 1024;

export class KvRecords {
  readonly #cache = new LruCache<ResolverRecord | null>(CACHE_BYTES);
  readonly #routes = new RoutedDocuments();

  reading(kv: KvNamespace): RecordStore {
    return {
      get: (umid) => this.#get(umid, kv),
      blob: async (key) => {
        const { value } = await kv.getWithMetadata(key, "arrayBuffer");
        return value === null ? undefined : new Uint8Array(value);
      },
      routes: this.#routes,
    };
  }

  async #get(umid: string, kv: KvNamespace): Promise<ResolverRecord | undefined> {
    const cached = this.#cache.get(umid);
    if (cached !== undefined) return cached ?? undefined;
    const { value, metadata } = await kv.getWithMetadata<KvMetadata>(await kvKey(umid), "arrayBuffer");
    const record = await toRecord(umid, value, metadata);
    // A corrupt record is not kept: the next request reads it again.
    if (record?.kind !== "corrupt")
      this.#cache.set(umid, record ?? null, umid.length + (record?.kind === "manifest" ? record.body.byteLength : 64));
    return record;
  }
}

async function toRecord(
  umid: string,
  value: ArrayBuffer | null,
  metadata: KvMetadata | null,
): Promise<ResolverRecord | undefined> {
  if (value === null) return undefined;
  if (metadata !== null && "redirect" in metadata) {
    const location = new TextDecoder().decode(value);
    if (isServableLocation(location)) return { kind: "redirect", location };
    console.error(`manifest-resolver: the KV record of ${JSON.stringify(umid)} redirects to no location it can serve`);
    return { kind: "corrupt" };
  }
  const stored =
    metadata !== null && "status" in metadata && isStatusEntry(metadata.status) ? metadata.status : undefined;
  const status = stored && { ...stored, etag: await etagOf(statusDocumentBytes(umid, stored)) };
  if (metadata !== null && "revoked" in metadata) return { kind: "revoked", status };
  const body = new Uint8Array(value);
  if (metadata === null || !("etag" in metadata) || (await etagOf(body)) !== metadata.etag) {
    console.error(`manifest-resolver: the KV record of ${JSON.stringify(umid)} is not the body that was built`);
    return { kind: "corrupt" };
  }
  return { kind: "manifest", etag: metadata.etag, body, status };
}
