/**
 * GET with redirects followed by the client itself, so that every hop is held to the rule
 * of core/secure-url.ts (fetch's own following would take an https: resolver's 307 to plain
 * http:) and to a hop limit: at most 5 redirects (301, 302, 303, 307, 308: for a GET they
 * all mean "get it there"; contract §3.1 uses 307), each `Location` resolved against the
 * URL that gave it (RFC 9110 §10.2.2). A hop to a local or private address from a first URL
 * that is not on one is refused too (core/secure-url.ts, pointsInward): the server's word
 * must not aim the client at its own machine or network.
 *
 * `redirect: "manual"` gives the 3xx itself, `Location` readable, in Node, Deno and
 * workerd. A browser instead returns an opaque-redirect response (Fetch standard: type
 * "opaqueredirect", status 0, no headers), which hides where it leads. There the request is
 * made again with `redirect: "follow"`: the browser follows (at most 20 hops, its own
 * limit, which this code cannot lower), a secure page cannot be sent to http: (mixed
 * content is blocked), and the URL it ended at (`response.url`) must pass the same rule.
 */
import { isTrustworthyUrl, pointsInward } from "../secure-url.ts";
import { quoted } from "../excerpt.ts";

/** The fetch the client uses: the global one, or the caller's (a test's, a proxy's). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** The global fetch, as one function: requests in flight through it can be shared (core/did/did-web.ts). */
export const globalFetch: Fetch = (url, init) => fetch(url, init);

export interface Transport {
  fetch: Fetch;
  /** Milliseconds a request (each hop, and its body) may take before it counts as unreachable. */
  timeoutMs: number;
}

/** Whether a redirect may lead to another origin than the first URL's (a DID document's may not). */
export interface RedirectPolicy {
  sameOrigin?: boolean;
}

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type Followed =
  | {
      kind: "response";
      response: Response;
      url: string;
      /**
       * The first answer's `Location`, as sent, when it was a redirect: what a resolver's log records of a redirected
       * UMID. A browser hides it: there, the URL the browser ended at.
       */
      redirectedTo?: string;
    }
  /**
   * A URL on the way is not https: or loopback http: (core/secure-url.ts), or of another origin where one is asked,
   * or (`inward`) on a local or private address while the first URL is not.
   */
  | { kind: "insecure"; reason: string; crossOrigin?: true; inward?: true }
  /** No answer: a network failure, a timeout, a redirect with no usable Location, too many redirects. */
  | { kind: "unreachable"; reason: string; timedOut?: true };

export async function getFollowing(
  start: string,
  headers: Record<string, string>,
  transport: Transport,
  policy: RedirectPolicy = {},
): Promise<Followed> {
  let url = start;
  let redirectedTo: string | undefined;
  for (let hops = 0; ; hops++) {
    if (!URL.canParse(url)) return { kind: "insecure", reason: `${JSON.stringify(url)} is not an absolute URL` };
    if (!isTrustworthyUrl(url))
      return { kind: "insecure", reason: `${url} is neither https: nor http: to a loopback address` };
    const response = await fetchOnce(url, headers, transport, "manual");
    if ("kind" in response) return response;
    if (response.type === "opaqueredirect") return followedByBrowser(url, headers, transport, start, policy);
    if (!REDIRECT_STATUSES.has(response.status))
      return { kind: "response", response, url, ...(redirectedTo !== undefined && { redirectedTo }) };
    await discard(response);
    const location = response.headers.get("location");
    if (location === null || !URL.canParse(location, url))
      return {
        kind: "unreachable",
        reason:
          `${url} answered ${response.status} with ` +
          `${location === null ? "no Location" : `Location ${quoted(location)}, which is not a URL`}`,
      };
    const next = new URL(location, url).href;
    if (hops === MAX_REDIRECTS)
      return {
        kind: "unreachable",
        reason: `more than ${MAX_REDIRECTS} redirects from ${start}: ${url} redirects again, to ${next}, not followed`,
      };
    const refused = refusedHop(start, url, next, policy);
    if (refused !== undefined) return refused;
    redirectedTo ??= location;
    url = next;
  }
}

/** Why the hop from `url` to `next` is not taken, if it is not. */
function refusedHop(start: string, url: string, next: string, policy: RedirectPolicy): Followed | undefined {
  if (!isTrustworthyUrl(next))
    return {
      kind: "insecure",
      reason: `${url} redirects to ${next}, which is neither https: nor http: to a loopback address: not followed`,
    };
  if (pointsInward(next, start))
    return {
      kind: "insecure",
      reason: `${url} redirects to ${next}, a local or private address, from ${start}, which is not one: not followed`,
      inward: true,
    };
  if (policy.sameOrigin === true && new URL(next).origin !== new URL(start).origin)
    return {
      kind: "insecure",
      reason: `${url} redirects to ${next}, another origin than ${new URL(start).origin}: not followed`,
      crossOrigin: true,
    };
  return undefined;
}

/** One GET of `url` within the transport's time limit; what stands for its answer when there is none. */
async function fetchOnce(
  url: string,
  headers: Record<string, string>,
  transport: Transport,
  redirect: "manual" | "follow",
): Promise<Response | Followed> {
  try {
    return await transport.fetch(url, {
      method: "GET",
      headers,
      redirect,
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
  } catch (error) {
    return unreachable(url, error);
  }
}

function unreachable(url: string, error: unknown): Followed {
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  return { kind: "unreachable", reason: `cannot reach ${url}: ${failure(error)}`, ...(timedOut && { timedOut }) };
}

async function followedByBrowser(
  url: string,
  headers: Record<string, string>,
  transport: Transport,
  start: string,
  policy: RedirectPolicy,
): Promise<Followed> {
  const response = await fetchOnce(url, headers, transport, "follow");
  if ("kind" in response) return response;
  const final = response.url === "" ? url : response.url;
  const refused = final === url ? undefined : refusedHop(start, url, final, policy);
  // Only the first answer is ever an opaque redirect: a browser's own following starts there.
  if (refused === undefined)
    return { kind: "response", response, url: final, ...(final !== url && { redirectedTo: final }) };
  await discard(response);
  return refused;
}

/** Releases a response's connection without reading its body. */
export async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already closed or errored: nothing to release.
  }
}

/** A failed fetch in words: its message, and the cause a runtime nests under it (Node: ECONNREFUSED). */
export function failure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer in time";
  const cause =
    error.cause instanceof Error ? ((error.cause as { code?: string }).code ?? error.cause.message) : undefined;
  return cause === undefined ? error.message : `${error.message} (${cause})`;
}
