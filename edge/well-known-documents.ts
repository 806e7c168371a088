/**
 * The documents of issue 27 the resolver serves beside its records: each status list, at `STATUS_LIST_PREFIX/<listId>`
 * (a BitstringStatusListCredential the build derives from `_routes.json` and `content/_status/`:
 * scripts/plan/status-lists.ts), and the discovery document at `RESOLVERS_PATH` (EXT-OPT O5, from
 * `content/_resolvers.json`). They are stored as one table (edge/document-table.ts): the file `WELL_KNOWN_PATH` of
 * the static output, and the Workers KV key `WELL_KNOWN_KV_KEY` (no UMID's key starts so). A list of 131,072 entries
 * is a few kilobytes of GZIP, and a resolver of ten million manifests has 77 lists: the table is read whole, once.
 */
import { DocumentTable, type DocumentTableFile } from "./document-table.ts";
import { RESOLVERS_PATH, STATUS_LIST_PREFIX } from "../core/umid-path.ts";

export const WELL_KNOWN_PATH = "well-known-documents.json";
export const WELL_KNOWN_KV_KEY = "well-known-documents";
export const WELL_KNOWN_FORMAT = 1;

export interface WellKnownTable extends DocumentTableFile {
  format: typeof WELL_KNOWN_FORMAT;
}

/** What a served path names: its media type follows (edge/responses.ts, wellKnownAnswer). */
export type WellKnownKind = "status-list" | "resolvers";

/** What the document at request path `path` would be, or undefined for a path no such document is served at. */
export function wellKnownKind(path: string): WellKnownKind | undefined {
  if (path === RESOLVERS_PATH) return "resolvers";
  return path.startsWith(`${STATUS_LIST_PREFIX}/`) ? "status-list" : undefined;
}

/** The table of one deploy (edge/document-table.ts). */
export class WellKnownDocuments extends DocumentTable {
  constructor() {
    super(WELL_KNOWN_PATH, WELL_KNOWN_FORMAT);
  }
}
