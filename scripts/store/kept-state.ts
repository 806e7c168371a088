/**
 * The states builds keep in the store (blob-store.ts): JSON blobs that an output's marker
 * names by digest (the output's, scripts/plan/output-state.ts; the KV folder's,
 * scripts/write/kv-output.ts). A state is read only while its bytes have that digest, and
 * its reader checks its shape: any fault is no state, and the output is written whole.
 */
import { createHash } from "node:crypto";
import type { BlobStore } from "./blob-store.ts";

/** Keeps `state` in `store`, if there is one; its digest either way: an output names it, with a cache or without. */
export function keepState(store: BlobStore | undefined, state: Uint8Array): string {
  return store?.keep(state) ?? createHash("sha256").update(state).digest("hex");
}

/** A state read: its JSON value, and its bytes, to keep while the output that names it stands. */
export interface ReadState {
  value: unknown;
  blob: Uint8Array;
}

/** The state `digest` (hex) names in `store`; undefined when the store lacks it, or it is no JSON. */
export function readState(store: BlobStore, digest: string): ReadState | undefined {
  const blob = store.get(digest);
  if (typeof blob === "string") return undefined;
  const value = parsedJson(blob);
  return value === undefined ? undefined : { value, blob };
}

/** The JSON value of `bytes`; undefined when they are no JSON. */
export function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    return undefined;
  }
}
