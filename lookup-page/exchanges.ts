/**
 * Every request the client makes for the page, recorded so the page can show what happened
 * on the wire, redirects included. The client asks with `redirect: "manual"`, which in a
 * browser gives an opaque redirect (Fetch standard: type "opaqueredirect", status 0, no
 * headers): the 3xx and its Location are hidden from the page, so the client asks again and
 * lets the browser follow (core/http/fetch-following.ts). Responses are kept as clones
 * (Response.clone tees the body), read once the client is done.
 */
import type { Fetch } from "../core/client/index.ts";
import { DID_DOCUMENT_TYPES } from "../core/did/did-web.ts";

export interface Exchange {
  url: string;
  /** Whether the client asked for a DID document (a keyRef's did:web), which its signer serves, not the resolver. */
  didDocument: boolean;
  /** The answer; absent when the request failed. */
  response?: Response;
  /** Why the request failed (fetch's TypeError: unreachable, or not readable cross-origin). */
  error?: string;
}

/** A Fetch that records into `log`, and always asks the network: a lookup shows what the resolver says now. */
export function recordingFetch(log: Exchange[]): Fetch {
  return async (url, init) => {
    const didDocument = new Headers(init.headers).get("accept") === DID_DOCUMENT_TYPES;
    const exchange: Exchange = { url, didDocument };
    log.push(exchange);
    try {
      // Node's RequestInit type lacks `cache`, which browsers honour: passed as a variable, it type-checks in both.
      const uncached = { ...init, cache: "no-store" as const };
      const response = await fetch(url, uncached);
      exchange.response = response.clone();
      return response;
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
}

/** The manifest's answer: the first response that is not a redirect (those after it are the status document's). */
export function manifestAnswer(log: Exchange[]): Response | undefined {
  const answered = log.find((e) => e.response?.type !== "opaqueredirect");
  return answered?.response;
}

/** Whether exchange `i` failed following an opaque redirect: the resolver answered, its target cannot be read. */
function unreadableAfterRedirect(exchanges: Exchange[], i: number): boolean {
  return exchanges[i]?.response === undefined && exchanges[i - 1]?.response?.type === "opaqueredirect";
}

/** Whether the lookup ended at a redirect's target that this page cannot read (not at the resolver). */
export function endedAtUnreadableRedirect(exchanges: Exchange[]): boolean {
  return exchanges.length > 1 && unreadableAfterRedirect(exchanges, exchanges.length - 1);
}

/** One line per exchange, in words. */
export function exchangeWords(exchanges: Exchange[]): string[] {
  return exchanges.map((exchange, i) => {
    if (exchange.response === undefined) {
      return unreadableAfterRedirect(exchanges, i)
        ? `GET ${exchange.url}, following that redirect: no readable answer ` +
            `(${exchange.error}). The target does not allow this page's origin to read it ` +
            `(no CORS), or cannot be reached; open the request URL in a tab to see where it ` +
            `leads.`
        : exchange.didDocument
          ? `GET ${exchange.url}: no answer (${exchange.error}). This is the signer's DID document, which ` +
            `${new URL(exchange.url).host} serves, not the resolver: is that host up, and does it allow ` +
            `cross-origin requests? The manifest itself is the resolver's answer above.`
          : `GET ${exchange.url}: no answer (${exchange.error}). Is the resolver URL right, ` +
            `is it up, and does it allow cross-origin requests?`;
    }
    const response = exchange.response;
    if (response.type === "opaqueredirect")
      return (
        `GET ${exchange.url}: a redirect. A browser hides a redirect's status (such as ` +
        `307) and its Location from the page (an opaque redirect), so the page asked ` +
        `again and let the browser follow it.`
      );
    const answer = `${response.status} ${response.statusText}`.trim();
    return response.redirected
      ? `GET ${exchange.url}: the browser followed the redirect to ${response.url}, which answered ${answer}`
      : `GET ${exchange.url}: ${answer}`;
  });
}
