/**
 * The discovery document of EXT-OPT O5, `<base>/.well-known/um-resolvers`, read: the one reader of it, used by
 * `check` on `content/_resolvers.json` (scripts/check/resolvers-document.ts) and by the relying party's client on what
 * a resolver serves (client/discovered-peers.ts), so that a document passes `check` exactly when every client takes
 * it (issue 37, defect 3):
 *   { "resolver": "did:web:resolver.example",
 *     "peers": [ { "url": "https://peer.example/", "did": "did:web:peer.example" } ] }
 * `resolver` and each `did` a DID, each `url` a base URL the client may ask (core/http/base-url.ts), no other member.
 *
 * The document is the resolver's word alone (it has no signature), and each peer it names is asked at once: so a
 * document naming more than MAX_DISCOVERED_PEERS is refused whole (a thousand peers would be a thousand requests and
 * lists held per resolution), and so is one naming a peer on a local or private address when the resolver is not on
 * one (core/secure-url.ts: a remote resolver would send the relying party's requests to its own machine or network).
 */
import { baseUrlProblem } from "../http/base-url.ts";
import { DEFAULT_LIMITS } from "../evaluate/limits.ts";
import { quoted } from "../excerpt.ts";
import { isJsonObject, parseJson, type JsonProblem } from "../json/strict-json.ts";
import type { SourceMap } from "../json/source-map.ts";
import { pointsInward } from "../secure-url.ts";
import type { Problem } from "../validate/problem.ts";

/** The largest document read: a client fetches no more, `check` refuses a larger file. */
export const RESOLVERS_DOCUMENT_MAX_BYTES = 64 * 1024;
/** The most peers a discovery document may name. */
export const MAX_DISCOVERED_PEERS = 16;
/** A DID (DID Core §3.1): `did:<method>:<method-specific id>`. */
const DID = /^did:[a-z0-9]+:[A-Za-z0-9._%:-]*[A-Za-z0-9._%-]$/;

export interface ResolversDocument {
  resolver: string;
  peers: { url: string; did: string }[];
}

export type ResolversReading =
  /** Taken whole; `source`, where its values are (to place a peer: `check --base`, scripts/history/resolvers-rule.ts). */
  | { ok: true; document: ResolversDocument; source: SourceMap }
  /** Not JSON within the shape limits. */
  | { ok: false; unparsed: JsonProblem }
  /** JSON, but not a discovery document: every fault, at its pointer, rule `resolvers/bad-document`. */
  | { ok: false; problems: Problem[]; source: SourceMap };

/**
 * `text` read as the discovery document of the resolver at `resolverBase` (its base URL; undefined when not known,
 * judged as a remote resolver's).
 */
export function readResolversDocument(text: string, resolverBase: string | undefined): ResolversReading {
  const parsed = parseJson(text, DEFAULT_LIMITS);
  if (!parsed.ok) return { ok: false, unparsed: parsed.problem };
  const problems: Problem[] = [];
  const bad = (pointer: string, message: string) => problems.push({ pointer, rule: "resolvers/bad-document", message });
  const unknown = (value: Record<string, unknown>, pointer: string, known: readonly string[]) => {
    for (const member of Object.keys(value))
      if (!known.includes(member)) bad(`${pointer}/${member}`, `unknown member ${quoted(member)}`);
  };
  const isDid = (value: unknown) => typeof value === "string" && DID.test(value);
  const document = parsed.value;
  if (!isJsonObject(document)) {
    bad("", 'must be an object: {"resolver": <DID>, "peers": [...]}');
    return { ok: false, problems, source: parsed.source };
  }
  unknown(document, "", ["resolver", "peers"]);
  if (!isDid(document.resolver)) bad("/resolver", "must be this resolver's DID, e.g. did:web:resolver.example");
  if (!Array.isArray(document.peers)) bad("/peers", 'must be an array of {"url", "did"}');
  else if (document.peers.length > MAX_DISCOVERED_PEERS)
    bad("/peers", `names ${document.peers.length} peers, more than the ${MAX_DISCOVERED_PEERS} a client asks`);
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
      else if (pointsInward(peer.url as string, resolverBase))
        bad(
          `${pointer}/url`,
          `is on a local or private address (${peer.url as string}), and the resolver ` +
            `(${resolverBase ?? "UM_RESOLVER_URL not set"}) is not: a client would be sent to its own machine or network`,
        );
      if (!isDid(peer.did)) bad(`${pointer}/did`, "must be the peer's DID, e.g. did:web:peer.example");
    }
  if (problems.length > 0) return { ok: false, problems, source: parsed.source };
  const peers = (document.peers as { url: string; did: string }[]).map(({ url, did }) => ({ url, did }));
  return { ok: true, document: { resolver: document.resolver as string, peers }, source: parsed.source };
}
