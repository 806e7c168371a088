/**
 * The discovery document of EXT-OPT O5, `<base>/.well-known/um-resolvers`, as a relying
 * party reads it to find a resolver's federation peers:
 *   { "resolver": "did:web:resolver.example",
 *     "peers": [ { "url": "https://peer.example/", "did": "did:web:peer.example" } ] }
 * `resolver` and each `did` a DID, each `url` a base URL the client may ask
 * (client/base-url.ts). Fetched through the client's cache, as any answer; a document
 * that cannot be had or read is the caller's warning, never a verdict.
 *
 * The document is the primary's word alone (it has no signature), and each peer it names is
 * asked at once: so a document naming more than MAX_DISCOVERED_PEERS is refused whole (a
 * thousand peers would be a thousand requests and lists held per resolution), and so is one
 * naming a loopback peer when the primary is not on loopback (a remote resolver would send the
 * relying party's requests to its own machine).
 */
import { DEFAULT_LIMITS } from "../evaluate/arrive.ts";
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import { isJsonMediaType, mediaTypeOf } from "../media-type.ts";
import { isLoopbackHost } from "../secure-url.ts";
import { RESOLVERS_PATH } from "../umid-path.ts";
import { baseUrlProblem } from "./base-url.ts";
import { cachedGet } from "./conditional-get.ts";
import { storedWithin } from "./http-cache.ts";
import { unanswered, type StatusRequest } from "./status-resolution.ts";

const MAX_RESOLVERS_BYTES = 64 * 1024;
const DID = /^did:[a-z0-9]+:\S+$/;
/** The most peers a discovery document may name. */
export const MAX_DISCOVERED_PEERS = 16;

/** The peers' base URLs the resolver at `base` names, or why there are none to take. */
export async function discoveredPeers(
  base: string,
  request: StatusRequest,
): Promise<{ peers: string[] } | { problem: string }> {
  const url = base + RESOLVERS_PATH;
  const got = await cachedGet({
    url,
    accept: "application/json",
    maxBytes: MAX_RESOLVERS_BYTES,
    ...request,
    judge: (entry) => ({ fresh: storedWithin(entry, entry.maxAge, request.now), validator: entry.etag }),
  });
  if (got.kind !== "entry")
    return { problem: unanswered(got, "discovery document", MAX_RESOLVERS_BYTES).revocation.message! };
  const { entry } = got;
  if (!isJsonMediaType(mediaTypeOf(entry.contentType)))
    return { problem: `${entry.url} answered ${JSON.stringify(entry.contentType ?? null)}, not JSON` };
  const parsed = parseJson(entry.body, DEFAULT_LIMITS);
  const peers = parsed.ok ? peersOf(parsed.value, base) : { problem: `not JSON: ${parsed.problem.message}` };
  if ("problem" in peers) return { problem: `${entry.url}: ${peers.problem}` };
  await got.save();
  return peers;
}

function peersOf(document: unknown, base: string): { peers: string[] } | { problem: string } {
  if (!isJsonObject(document) || typeof document.resolver !== "string" || !DID.test(document.resolver))
    return { problem: "not a discovery document: its resolver is not a DID" };
  if (!Array.isArray(document.peers)) return { problem: "not a discovery document: its peers are not an array" };
  if (document.peers.length > MAX_DISCOVERED_PEERS)
    return {
      problem: `it names ${document.peers.length} peers, more than the ${MAX_DISCOVERED_PEERS} this client asks`,
    };
  const remote = !isLoopbackHost(new URL(base).hostname);
  const peers: string[] = [];
  for (const [i, peer] of document.peers.entries()) {
    const problem = !isJsonObject(peer)
      ? "is not an object"
      : typeof peer.did !== "string" || !DID.test(peer.did)
        ? "has no did that is a DID"
        : typeof peer.url !== "string"
          ? "has no url"
          : (baseUrlProblem(peer.url) ??
            (remote && isLoopbackHost(new URL(peer.url).hostname)
              ? `is on loopback (${peer.url}), and the resolver is not`
              : undefined));
    if (problem !== undefined) return { problem: `peers[${i}] ${problem}` };
    peers.push(peer.url as string);
  }
  return { peers };
}
