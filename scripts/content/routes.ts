/**
 * `_routes.json`: the UMIDs answered without a payload (redirects, revocations), checked
 * on its own: its schema, and one fate per UMID. (That no redirected UMID is also
 * published is checked against the manifests, in check-content.ts.)
 */
import type { Diagnostic } from "../diagnostics.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { LIST_FILE_SHAPE } from "./files.ts";
import { parseAndValidate, placed, placeOf } from "./source.ts";

export interface RoutesCheck {
  /** The document as parsed ({} if it is not an object). */
  document: RoutesFile;
  redirects: Map<string, string>;
  /** Where each redirect's UMID is, to name it in a conflict. */
  redirectEntries: Map<string, { pointer: string }>;
  revoked: Set<string>;
  diagnostics: Diagnostic[];
}

export interface RoutesFile {
  redirects?: { umid: string; location: string }[];
  revoked?: { umid: string; revokedAt?: string; reason?: string }[];
}

/** `_routes.json` text on its own. */
export function checkRoutesText(file: string, text: string, validators: SchemaValidators): RoutesCheck {
  const parsed = parseAndValidate(file, text, LIST_FILE_SHAPE, validators.routes);
  // Entries are still checked against each other when others are malformed, so that one
  // run lists every problem; a malformed entry itself is skipped.
  const routes = (isJsonObject(parsed.value) ? parsed.value : {}) as RoutesFile;
  const result: RoutesCheck = { document: routes, redirects: new Map(), redirectEntries: new Map(), revoked: new Set(), diagnostics: parsed.diagnostics };
  const source = { file, text };

  // One fate per UMID: listed once, and never both revoked and redirected.
  const firstEntry = new Map<string, { pointer: string; fate: "revoked" | "redirected" }>();
  const claim = (umid: string, pointer: string, fate: "revoked" | "redirected"): boolean => {
    const first = firstEntry.get(umid);
    if (first !== undefined) {
      const rule = first.fate === fate ? "routes/duplicate" : "routes/conflict";
      result.diagnostics.push(placed(source, pointer, rule, `UMID ${JSON.stringify(umid)} is already ${first.fate} at ${placeOf(source, first.pointer)}`));
      return false;
    }
    firstEntry.set(umid, { pointer, fate });
    return true;
  };
  for (const [{ umid }, i] of namedEntries(routes.revoked)) {
    if (claim(umid, `/revoked/${i}/umid`, "revoked")) result.revoked.add(umid);
  }
  for (const [{ umid, location }, i] of namedEntries(routes.redirects)) {
    const pointer = `/redirects/${i}/umid`;
    if (!claim(umid, pointer, "redirected")) continue;
    result.redirects.set(umid, location);
    result.redirectEntries.set(umid, { pointer });
  }
  return result;
}

/** The entries of a routes list that at least name a UMID, with their indexes. */
function namedEntries<T extends { umid: string }>(list: T[] | undefined): [T, number][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i): [T, number][] => (isJsonObject(entry) && typeof entry.umid === "string" && entry.umid !== "" ? [[entry, i]] : []));
}
