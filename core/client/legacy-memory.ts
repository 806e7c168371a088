/**
 * What version 0.1.0 kept of the client's memory in its HttpCache: a status under the URL
 * the UMID is resolved at with `#status-seen` (`{status, cursor?}` as JSON text), the
 * largest checkpoint of a log under its verifier key with `#checkpoint-seen` (the signed
 * note). A cache filled by 0.1.0 is read by later versions (docs/versioning.md), so a
 * revocation seen before an upgrade is not forgotten: where the memory holds nothing under
 * a key, the cache's old entry is read, and kept in the memory from then on. Nothing is
 * ever written under those keys again.
 */
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import type { HttpCache } from "../http/http-cache.ts";
import type { Remembered, TrustMemory } from "./trust-memory.ts";

/** `memory`, reading what `cache` kept under 0.1.0's keys where it holds nothing. */
export function withLegacyEntries(memory: TrustMemory, cache: HttpCache): TrustMemory {
  return {
    async recall(key) {
      const held = await memory.recall(key);
      if (held !== undefined) return held;
      const legacy = await legacyRecord(cache, key);
      if (legacy !== undefined) await memory.keep(key, legacy);
      return legacy;
    },
    keep: (key, record) => memory.keep(key, record),
    forget: (key) => memory.forget(key),
  };
}

/** What 0.1.0 stored of a status is one flat object; a cache folder may hold anything. */
const SEEN_SHAPE = { maxDepth: 1, maxArrayItems: 0 };

/** The record 0.1.0 kept for a key of the memory (status-memory.ts, checkpoint-memory.ts); undefined when none. */
async function legacyRecord(cache: HttpCache, key: string): Promise<Remembered | undefined> {
  const [kind, ...rest] = key.split(" ");
  const named = rest.join(" ");
  if (kind === "checkpoint") {
    const entry = await cache.get(`${named}#checkpoint-seen`);
    // The note is opened with the key when it is recalled (checkpoint-memory.ts): anything else counts for nothing.
    return entry && { kind: "checkpoint", note: entry.body, url: entry.url, storedAt: entry.storedAt };
  }
  if (kind !== "status") return undefined;
  const entry = await cache.get(`${named}#status-seen`);
  const parsed = entry === undefined ? undefined : parseJson(entry.body, SEEN_SHAPE);
  if (entry === undefined || !parsed?.ok || !isJsonObject(parsed.value)) return undefined;
  const { status, cursor } = parsed.value;
  // An "active" kept then is what a UMID never seen is now.
  if ((status !== "revoked" && status !== "suspended") || (cursor !== undefined && typeof cursor !== "string"))
    return undefined;
  return { kind: status, ...(cursor !== undefined && { cursor }), url: entry.url, storedAt: entry.storedAt };
}
