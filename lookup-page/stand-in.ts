/**
 * A local server standing in for the resolver the output was built for. `serve` and `dev` answer, before any deploy,
 * what the configured resolver URL will answer: its did:web document, its status documents and lists. They say so in
 * the page they serve (a meta tag no build writes), and a lookup of the local server is then made as of that URL,
 * with every request under it sent to the local server. A fresh project reads as it will once deployed: its keyRef's
 * did:web confirmed by the document the build wrote, its statusRef on the resolver's own origin.
 */
import type { Fetch } from "../core/client/index.ts";
import { isLoopbackHost } from "../core/secure-url.ts";

export interface StandIn {
  /** The resolver's configured base URL, which the lookup is made as of. */
  for: string;
  /** The local server's base URL, which answers in its place. */
  at: string;
}

/**
 * The stand-in for a lookup of `resolver`: when the page's server said (`meta`: the content of the page's meta tag of
 * a name, "" for none) that `resolver` answers for another URL.
 */
export function standInFor(resolver: string, meta: (name: string) => string): StandIn | undefined {
  const configured = normalized(meta("manifest-resolver-stands-in-for"));
  return configured !== undefined &&
    configured !== resolver &&
    resolver === meta("manifest-resolver").replace(/\/+$/, "")
    ? { for: configured, at: resolver }
    : undefined;
}

/**
 * `base` as a URL's own serialization writes it (host in lower case, no default port), as the client writes the URLs
 * it derives from a DID (core/did/did-web-url.ts), without a trailing slash; undefined for "" or no URL.
 */
function normalized(base: string): string | undefined {
  try {
    return new URL(base).href.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

/** `fetch` asking `standIn.at` whatever is under `standIn.for`, with each answer's URL read back as under `for`. */
export function standingIn(fetch: Fetch, standIn: StandIn): Fetch {
  return async (url, init) => {
    const response = await fetch(moved(url, standIn.for, standIn.at), init);
    const seen = moved(response.url, standIn.at, standIn.for);
    // Response.url is a getter on the prototype: an own property shadows it, for the one response read here.
    return seen === response.url ? response : Object.defineProperty(response, "url", { value: seen });
  };
}

/** What the verdict adds: whose answers these were. */
export function standInWords(standIn: StandIn): string {
  return isLoopbackHost(new URL(standIn.for).hostname)
    ? `asked as ${standIn.for}, the resolver URL this output was built for, which this server answers for`
    : `answered by this local server in place of ${standIn.for}, the resolver URL this output was built for: ` +
        "what that resolver will answer once the output is deployed there";
}

/** `url` with the base `from` replaced by `to`, when it is `from` or under it; otherwise `url`. */
function moved(url: string, from: string, to: string): string {
  const rest = url.slice(from.length);
  return url.startsWith(from) && (rest === "" || /^[/?#]/.test(rest)) ? to + rest : url;
}
