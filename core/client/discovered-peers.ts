/**
 * The peers a resolver's discovery document (EXT-OPT O5, `<base>/.well-known/um-resolvers`) names, as the relying
 * party takes them: fetched through the client's cache, as any answer, and read by the one reader `check` reads
 * `content/_resolvers.json` with (core/client/resolvers-document.ts), so a document `check` passes is one every client
 * takes. A document that cannot be had or read is the caller's warning, never a verdict; one with any fault is
 * refused whole.
 */
import { isJsonMediaType, mediaTypeOf } from "../media-type.ts";
import { readResolversDocument, RESOLVERS_DOCUMENT_MAX_BYTES } from "./resolvers-document.ts";
import { RESOLVERS_PATH } from "../umid-path.ts";
import { cachedGet } from "../http/conditional-get.ts";
import { storedWithin } from "../http/http-cache.ts";
import { unanswered, type StatusRequest } from "./status-resolution.ts";

/** The peers' base URLs the resolver at `base` names, or why there are none to take. */
export async function discoveredPeers(
  base: string,
  request: StatusRequest,
): Promise<{ peers: string[] } | { problem: string }> {
  const url = base + RESOLVERS_PATH;
  const got = await cachedGet({
    url,
    accept: "application/json",
    maxBytes: RESOLVERS_DOCUMENT_MAX_BYTES,
    ...request,
    judge: (entry) => ({ fresh: storedWithin(entry, entry.maxAge, request.now), validator: entry.etag }),
  });
  if (got.kind !== "entry")
    return { problem: unanswered(got, "discovery document", RESOLVERS_DOCUMENT_MAX_BYTES).revocation.message! };
  const { entry } = got;
  if (!isJsonMediaType(mediaTypeOf(entry.contentType)))
    return { problem: `${entry.url} answered ${JSON.stringify(entry.contentType ?? null)}, not JSON` };
  const read = readResolversDocument(entry.body, base);
  if (!read.ok) {
    const problem = "unparsed" in read ? read.unparsed : read.problems[0]!;
    const at = "pointer" in problem && problem.pointer !== "" ? ` at ${problem.pointer}` : "";
    return { problem: `${entry.url}: not a discovery document${at}: ${problem.message} (${problem.rule})` };
  }
  await got.save();
  return { peers: read.document.peers.map((peer) => peer.url) };
}
