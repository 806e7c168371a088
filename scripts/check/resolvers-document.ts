/**
 * `content/_resolvers.json`, the discovery document the build publishes at `/.well-known/um-resolvers` (EXT-OPT O5;
 * issue 27, section 3). Relying parties take the peers to ask for federated status from it
 * (`resolve --federate-discover`), so it is read here by the reader every client reads it with
 * (core/resolvers-document.ts), with the same byte limit: a document `check` passes, every client takes whole.
 *
 * A peer on a local or private address is refused unless this resolver is on one too, which `check` knows from
 * `UM_RESOLVER_URL`; without it, the document is judged as a deployed, remote resolver serves it (a trial on this
 * machine sets `UM_RESOLVER_URL=http://localhost:PORT/`).
 */
import { join } from "node:path";
import { lineColumn } from "../../core/json/source-map.ts";
import { readResolversDocument, RESOLVERS_DOCUMENT_MAX_BYTES } from "../../core/resolvers-document.ts";
import { displayPath, readSourceText } from "../read/files.ts";
import { placed } from "../read/source.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

export const RESOLVERS_FILE = "_resolvers.json";

export interface ResolversDocument {
  /** The file, when there is one. */
  file?: string;
  /** What the build publishes: the document's JSON, when it is one. */
  body: string | undefined;
  diagnostics: Diagnostic[];
}

/** The discovery document of the content root `dir`, checked; `resolverUrl`: UM_RESOLVER_URL, "" when not set. */
export function checkResolversDocument(dir: string, resolverUrl: string): ResolversDocument {
  const path = join(dir, RESOLVERS_FILE);
  const read = readSourceText(path, {
    bytes: RESOLVERS_DOCUMENT_MAX_BYTES,
    setBy: "fixed for the discovery document, as every client reads it",
  });
  if ("diagnostic" in read)
    return read.missing
      ? { body: undefined, diagnostics: [] }
      : { file: displayPath(path), body: undefined, diagnostics: [read.diagnostic] };
  const file = displayPath(path);
  const document = readResolversDocument(read.text, resolverUrl === "" ? undefined : resolverUrl);
  if (document.ok) return { file, body: JSON.stringify(document.document), diagnostics: [] };
  if ("unparsed" in document) {
    const { rule, message, offset } = document.unparsed;
    return {
      file,
      body: undefined,
      diagnostics: [diagnostic(rule, { file, ...lineColumn(read.text, offset) }, message)],
    };
  }
  const source = { file, map: document.source };
  const diagnostics = document.problems.map((problem) =>
    placed(source, problem.pointer, problem.rule, problem.message),
  );
  return { file, body: undefined, diagnostics };
}
