/**
 * The bodies a build keeps in the cache's blob store (scripts/store/blob-store.ts), and
 * takes back from it: a recalled manifest's body is published from there instead of being
 * made again from its file.
 */
import { readFileSync } from "node:fs";
import { quoted } from "../../core/excerpt.ts";
import type { VerificationCache } from "../cache/verification-cache.ts";
import type { PublishedManifests } from "../check/published.ts";
import { printWarning } from "../report/problem-report.ts";
import type { HeldBodies } from "../write/held-bodies.ts";

/**
 * Puts in the cache's blob store each published body it does not hold, the one `held` holds under its digest, else
 * from its file in the output (`fileOf`), and writes them: a refusal is known before the cache is saved. A file that
 * is gone is not kept: a read is not a refused write.
 */
export function keepBodies(
  cache: VerificationCache | undefined,
  published: PublishedManifests,
  fileOf: (umid: string) => string,
  held?: HeldBodies,
): void {
  const store = cache?.blobs;
  if (store === undefined) return;
  for (let i = 0; i < published.length && store.unwritable === undefined; i++) {
    const digest = published.digestBytesAt(i);
    if (store.has(digest)) continue;
    const kept = held?.get(digest);
    if (kept !== undefined) {
      store.put(kept, digest);
      continue;
    }
    const body = outputBody(fileOf(published.umidAt(i)));
    // Bytes that are no longer that body are filed under their own digest, which no entry names: the index drops them.
    if (body !== undefined) store.put(body);
  }
  store.flush();
}

/**
 * The bytes of a body the cache recalled, from its blob store, still those verified; none
 * when the file must be checked again: the store no longer has it, or has other bytes
 * under its digest (a warning: someone or something altered the store).
 */
export function recalledBody(cache: VerificationCache, umid: string, digest: string): Uint8Array | undefined {
  const recalled = cache.blobs!.get(digest);
  if (recalled === "altered")
    printWarning(
      `the verification cache's body of ${quoted(umid)} is not the one verified ` +
        `(${cache.blobs!.dir} was altered), so it was dropped and its file checked again`,
    );
  return typeof recalled === "string" ? undefined : recalled;
}

/** The bytes of the output's file at `path`, if it can be read. */
function outputBody(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    // The output's file is gone or unreadable: that body is not kept, and nothing else changes.
    return undefined;
  }
}
