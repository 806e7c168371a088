/**
 * What checking one manifest file concluded: one value whose fields are all there for its
 * state. `valid` is a manifest with no error (warnings aside), so a build may publish it;
 * `invalid` is anything else. Both name the UMID the file claims, when it claims one: a
 * manifest that fails still claims its @id, so that a second file claiming it is reported
 * before the first is fixed.
 */
import type { Place } from "../../core/json/source-map.ts";
import type { Alias, KeptStatusRef, SerializedVerdict, StoredBody } from "../cache/verification-cache.ts";
import type { Diagnostic } from "../report/diagnostics.ts";

export type CheckedManifest = ValidManifest | InvalidManifest;

interface CheckedFile {
  file: string;
  diagnostics: Diagnostic[];
  /** The @id, when the file holds an object with a non-empty string @id. */
  umid: string | null;
  /** Where the @id is in the file, with it: a diagnostic across files names that place. */
  umidAt: Place | null;
  /** `signature.statusRef` when it is a string, and where it is: a list entry's is held to the allocation. */
  statusRef: KeptStatusRef | null;
  /** Not checked again: the verification cache's entry gave this result. */
  recalled: boolean;
  /** Checked with the verification cache, and not recalled: what it keeps of this check, under its key. */
  cacheEntry: { key: Uint8Array; alias: Alias | undefined; verdict: SerializedVerdict } | null;
}

export interface InvalidManifest extends CheckedFile {
  state: "invalid";
  /**
   * For a file that claims a UMID: the SHA-256 of its canonical (JCS) form, as a body's digest is (`check --summary`
   * compares it with the one at the base); null when it has none or, recalled from the cache, none was kept.
   */
  digest: Uint8Array | null;
  /** When the manifest says it was issued, in milliseconds since the epoch; NaN when it does not say. */
  issuedAt: number;
}

export interface ValidManifest extends CheckedFile {
  state: "valid";
  umid: string;
  /** What a 200 carries: the canonical (JCS) form, or where the cache's blob store keeps it. */
  body: ManifestBody;
  /** The body's SHA-256, which its ETag carries. */
  digest: Uint8Array;
  /** When the manifest was issued, in milliseconds since the epoch; NaN when it does not say. */
  issuedAt: number;
  /** The manifestVersion of a legacy payload (below 0.4); null for a v0.4 manifest. */
  legacyVersion: string | null;
}

export type ManifestBody = { kind: "bytes"; bytes: Uint8Array } | { kind: "stored"; stored: StoredBody };
