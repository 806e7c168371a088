/**
 * `_routes.json`: the UMIDs answered without a payload (redirects, revocations) and the
 * status of published ones (suspended, reinstated), checked on its own: its schema, and
 * one entry per UMID. (That no redirected UMID is also published, and that a suspended or
 * reinstated one is, is checked against the manifests, in check-content.ts.)
 */
import type { Diagnostic } from "../report/diagnostics.ts";
import { quoted } from "../../core/excerpt.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { LIST_FILE_SHAPE } from "../read/files.ts";
import { parseAndValidate, placed, placeOf, type SourceFile } from "../read/source.ts";

export interface RoutesCheck {
  /** The file, to place its entries. */
  source: SourceFile;
  /** The document as parsed ({} if it is not an object). */
  document: RoutesFile;
  /** Whether the text is a JSON object, valid or not: if not, its lists are unknown. */
  isObject: boolean;
  redirects: Map<string, string>;
  /** Where each redirect's UMID is, to name it in a conflict. */
  redirectEntries: Map<string, { pointer: string }>;
  revoked: Set<string>;
  /** The dated status of each revoked, suspended or reinstated UMID, and where it is listed. */
  statuses: Map<string, RouteStatus>;
  diagnostics: Diagnostic[];
}

/** A status `_routes.json` gives a UMID; `at` is when it began, if the entry says. */
export interface RouteStatus {
  list: StatusList;
  at?: string;
  reason?: string;
  pointer: string;
}

export type StatusList = "revoked" | "suspended" | "reinstated";

export interface RoutesFile {
  redirects?: { umid: string; location: string }[];
  revoked?: { umid: string; revokedAt?: string; reason?: string }[];
  suspended?: { umid: string; suspendedAt?: string; reason?: string }[];
  reinstated?: { umid: string; reinstatedAt: string }[];
}

/** The member of each status list's entries that dates it. */
export const DATE_MEMBER = { revoked: "revokedAt", suspended: "suspendedAt", reinstated: "reinstatedAt" } as const;

/** `_routes.json` text on its own. */
export function checkRoutesText(file: string, text: string, validators: SchemaValidators): RoutesCheck {
  const parsed = parseAndValidate(file, text, LIST_FILE_SHAPE, validators.routes);
  // Entries are still checked against each other when others are malformed, so that one
  // run lists every problem; a malformed entry itself is skipped.
  const routes = (isJsonObject(parsed.value) ? parsed.value : {}) as RoutesFile;
  const source = { file, ...(parsed.map !== undefined && { map: parsed.map }) };
  const result: RoutesCheck = {
    source,
    document: routes,
    isObject: isJsonObject(parsed.value),
    redirects: new Map(),
    redirectEntries: new Map(),
    revoked: new Set(),
    statuses: new Map(),
    diagnostics: parsed.diagnostics,
  };

  // One fate per UMID: listed once, in one list.
  const firstEntry = new Map<string, { pointer: string; fate: StatusList | "redirects" }>();
  const claim = (umid: string, pointer: string, fate: StatusList | "redirects"): boolean => {
    const first = firstEntry.get(umid);
    if (first !== undefined) {
      const rule = first.fate === fate ? "routes/duplicate" : "routes/conflict";
      result.diagnostics.push(
        placed(
          source,
          pointer,
          rule,
          `UMID ${quoted(umid)} is already ` +
            `${first.fate === "redirects" ? "redirected" : first.fate} at ` +
            `${placeOf(source, first.pointer)}`,
        ),
      );
      return false;
    }
    firstEntry.set(umid, { pointer, fate });
    return true;
  };
  for (const list of ["revoked", "suspended", "reinstated"] as const) {
    for (const [entry, i] of namedEntries<{ umid: string; reason?: string } & Partial<Record<string, string>>>(
      routes[list],
    )) {
      const pointer = `/${list}/${i}`;
      if (!claim(entry.umid, `${pointer}/umid`, list)) continue;
      const at = entry[DATE_MEMBER[list]];
      result.statuses.set(entry.umid, {
        list,
        pointer,
        ...(typeof at === "string" && { at }),
        ...(typeof entry.reason === "string" && { reason: entry.reason }),
      });
      if (list === "revoked") result.revoked.add(entry.umid);
      // The status endpoint says when a status began: an undated one is served as 1970.
      if (at === undefined)
        result.diagnostics.push(
          placed(
            source,
            pointer,
            "routes/undated",
            `has no ${DATE_MEMBER[list]}: its status document will say this status began at ` +
              `${UNDATED}; add when it did`,
          ),
        );
    }
  }
  for (const [{ umid, location }, i] of namedEntries(routes.redirects)) {
    const pointer = `/redirects/${i}/umid`;
    if (!claim(umid, pointer, "redirects")) continue;
    result.redirects.set(umid, location);
    result.redirectEntries.set(umid, { pointer });
  }
  return result;
}

/** When an undated status began, as served. */
export const UNDATED = "1970-01-01T00:00:00.000Z";

/** The entries of a routes list that at least name a UMID, with their indexes. */
function namedEntries<T extends { umid: string }>(list: T[] | undefined): [T, number][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i): [T, number][] =>
    isJsonObject(entry) && typeof entry.umid === "string" && entry.umid !== "" ? [[entry, i]] : [],
  );
}
