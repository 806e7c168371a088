/**
 * The resolver's own status listing of a UMID (EXT-OPT O2: its status endpoint), for a
 * manifest that names no statusRef: the client then leaves the receipt's revocationStatus
 * "unchecked", yet the resolver this page belongs to may list the UMID as suspended. Any
 * failure, a 404 or an answer that is not this UMID's status document means: nothing listed.
 */
import type { Resolved } from "../core/client/index.ts";
import { isJsonObject } from "../core/json/strict-json.ts";
import { readStatusDocument, type StatusDocument } from "../core/status/status-document.ts";
import { statusPath } from "../core/umid-path.ts";

/** Whether the client could not check the status because the manifest names no statusRef. */
function uncheckedForWantOfStatusRef(resolved: Resolved): boolean {
  const signature = resolved.manifest?.signature;
  return (
    resolved.receipt.revocationStatus === "unchecked" && !(isJsonObject(signature) && signature.statusRef !== undefined)
  );
}

/** The status document `resolver` lists for `umid`, asked only when the receipt could not check one. */
export async function listedStatus(
  resolver: string,
  umid: string,
  resolved: Resolved,
): Promise<StatusDocument | undefined> {
  if (!uncheckedForWantOfStatusRef(resolved)) return undefined;
  try {
    // Node's RequestInit type lacks `cache`, which browsers honour: passed as a variable, it type-checks in both.
    const uncached = { cache: "no-store" as const, headers: { Accept: "application/json" } };
    const response = await fetch(resolver + statusPath(umid), uncached);
    if (!response.ok) return undefined;
    // Read as the client reads one (core/status/status-document.ts).
    const document = readStatusDocument(await response.text());
    return "problem" in document || document.manifestId !== umid ? undefined : document;
  } catch {
    return undefined;
  }
}
