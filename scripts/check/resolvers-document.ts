/**
 * `content/_resolvers.json`, the discovery document the build publishes at `/.well-known/um-resolvers` (EXT-OPT O5;
 * issue 27, section 3). Relying parties take the peers to ask for federated status from it
 * (`resolve --federate-discover`), so it is read here by the reader every client reads it with
 * (core/client/resolvers-document.ts), with the same byte limit: a document `check` passes, every client takes whole.
 *
 * A peer on a local or private address is refused unless this resolver is on one too, which `check` knows from
 * `UM_RESOLVER_URL`; without it, the document is judged as a deployed, remote resolver serves it (a trial on this
 * machine sets `UM_RESOLVER_URL=http://localhost:PORT/`).
 */
import { join } from "node:path";
import { lineColumn, type SourceMap } from "../../core/json/source-map.ts";
import { readResolversDocument, RESOLVERS_DOCUMENT_MAX_BYTES } from "../../core/client/resolvers-document.ts";
import { displayPath, readSourceText } from "../read/files.ts";
import { placed } from "../read/source.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

export const RESOLVERS_FILE = "_resolvers.json";

export interface ResolversDocument {
  /** The file, when there is one. */
  file?: string;
  /** What the build publishes: the document's JSON, when it is one. */
  body: string | undefined;
  /** The document as every client takes it, when there is a file. */
  list?: ResolversList;
  diagnostics: Diagnostic[];
}

/**
 * `_resolvers.json` as every client takes it, with where its values are: what `check --base` compares with the
 * revision's (scripts/history/resolvers-rule.ts).
 */
export interface ResolversList {
  file: string;
  /** This resolver's DID ("" when unreadable). */
  resolver: string;
  /** Each peer, in the document's order: the index is its place, `/peers/<index>`. */
  peers: readonly { url: string; did: string }[];
  /** Where the values are, when the document was taken. */
  map?: SourceMap;
  /** Refused whole, as every client refuses it: no peer is asked, and the file's own errors fail the run. */
  unreadable?: true;
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
      : {
          file: displayPath(path),
          body: undefined,
          list: unreadable(displayPath(path)),
          diagnostics: [read.diagnostic],
        };
  return readResolversText(displayPath(path), read.text, resolverUrl);
}

/** The text of a discovery document (`file`), read with the one reader; `resolverUrl`: UM_RESOLVER_URL, or "". */
export function readResolversText(
  file: string,
  text: string,
  resolverUrl: string,
): ResolversDocument & { list: ResolversList } {
  const document = readResolversDocument(text, resolverUrl === "" ? undefined : resolverUrl);
  if (document.ok) {
    const { resolver, peers } = document.document;
    return {
      file,
      body: JSON.stringify(document.document),
      list: { file, resolver, peers, map: document.source },
      diagnostics: [],
    };
  }
  if ("unparsed" in document) {
    const { rule, message, offset } = document.unparsed;
    return {
      file,
      body: undefined,
      list: unreadable(file),
      diagnostics: [diagnostic(rule, { file, ...lineColumn(text, offset) }, message)],
    };
  }
  const source = { file, map: document.source };
  const diagnostics = document.problems.map((problem) =>
    placed(source, problem.pointer, problem.rule, problem.message),
  );
  return { file, body: undefined, list: unreadable(file), diagnostics };
}

/** A document every client refuses whole: it names no peer. */
function unreadable(file: string): ResolversList {
  return { file, resolver: "", peers: [], unreadable: true };
}
