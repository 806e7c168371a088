/**
 * `content/_resolvers.json`, the discovery document the build publishes at `/.well-known/um-resolvers` (EXT-OPT O5;
 * issue 27, section 3): `{"resolver": <this resolver's DID>, "peers": [{"url": <base URL>, "did": <DID>}, ...]}`.
 * Relying parties take the peers to ask for federated status from it (`resolve --federate-discover`), so each peer
 * must be a URL a status answer can be trusted over (https:, or http: to a loopback host), a base URL as the client
 * takes one (no query, fragment or credentials: core/client/base-url.ts), and a DID to name it by.
 */
import { join } from "node:path";
import { quoted } from "../../core/excerpt.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { baseUrlProblem } from "../../core/client/base-url.ts";
import { DEFAULT_LIMITS } from "../../core/evaluate/arrive.ts";
import { displayPath, LIST_FILE_LIMIT, readSourceText } from "../read/files.ts";
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

/** A DID (DID Core §3.1): `did:<method>:<method-specific id>`. */
const DID = /^did:[a-z0-9]+:[A-Za-z0-9._%:-]*[A-Za-z0-9._%-]$/;

/** The discovery document of the content root `dir`, checked. */
export function checkResolversDocument(dir: string): ResolversDocument {
  const path = join(dir, RESOLVERS_FILE);
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    return read.missing
      ? { body: undefined, diagnostics: [] }
      : { file: displayPath(path), body: undefined, diagnostics: [read.diagnostic] };
  const file = displayPath(path);
  // Parsed as relying parties parse it (core/client/resolvers-document.ts): a document they refuse names no peer.
  const parsed = parseJson(read.text, DEFAULT_LIMITS);
  if (!parsed.ok)
    return { file, body: undefined, diagnostics: [diagnostic(parsed.problem.rule, { file }, parsed.problem.message)] };
  const source = { file, map: parsed.source };
  const diagnostics: Diagnostic[] = [];
  const bad = (pointer: string, message: string) =>
    diagnostics.push(placed(source, pointer, "resolvers/bad-document", message));
  const unknown = (value: Record<string, unknown>, pointer: string, known: readonly string[]) => {
    for (const member of Object.keys(value))
      if (!known.includes(member)) bad(`${pointer}/${member}`, `unknown member ${quoted(member)}`);
  };
  const isDid = (value: unknown) => typeof value === "string" && DID.test(value);
  const document = parsed.value;
  if (!isJsonObject(document)) bad("", 'must be an object: {"resolver": <DID>, "peers": [...]}');
  else {
    unknown(document, "", ["resolver", "peers"]);
    if (!isDid(document.resolver)) bad("/resolver", "must be this resolver's DID, e.g. did:web:resolver.example");
    if (!Array.isArray(document.peers)) bad("/peers", 'must be an array of {"url", "did"}');
    else
      for (const [i, peer] of document.peers.entries()) {
        const pointer = `/peers/${i}`;
        if (!isJsonObject(peer)) {
          bad(pointer, 'must be an object: {"url": <base URL>, "did": <DID>}');
          continue;
        }
        unknown(peer, pointer, ["url", "did"]);
        const urlProblem = typeof peer.url === "string" ? baseUrlProblem(peer.url) : "it is not a string";
        if (urlProblem !== undefined)
          bad(`${pointer}/url`, `must be the peer's base URL (https:, or http: to a loopback host): ${urlProblem}`);
        if (!isDid(peer.did)) bad(`${pointer}/did`, "must be the peer's DID, e.g. did:web:peer.example");
      }
  }
  return { file, body: diagnostics.length === 0 ? JSON.stringify(document) : undefined, diagnostics };
}
