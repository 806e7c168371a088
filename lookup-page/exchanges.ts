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
import { LOG_PREFIX, STATUS_PREFIX } from "../core/umid-path.ts";
import { shortened } from "./words.ts";

/**
 * What a request asked for: the manifest (its redirects included), its status (a status document or list), a
 * signer's DID document (which its signer serves, not the resolver), or a file of the resolver's transparency log.
 */
export type ExchangeKind = "manifest" | "redirect" | "status" | "did" | "log";

export interface Exchange {
  url: string;
  kind: ExchangeKind;
  /** The answer; absent when the request failed. */
  response?: Response;
  /** Why the request failed (fetch's TypeError: unreachable, or not readable cross-origin). */
  error?: string;
}

/** What `url`, asked with `accept`, is for. */
function kindOf(url: string, accept: string | null): ExchangeKind {
  if (accept === DID_DOCUMENT_TYPES) return "did";
  const path = new URL(url).pathname;
  // The status list prefix starts with the status document's.
  if (path.startsWith(STATUS_PREFIX)) return "status";
  return path.startsWith(LOG_PREFIX) ? "log" : "manifest";
}

/**
 * A Fetch that records into `log`, always asks the network (a lookup shows what the resolver says now), and stops
 * when `signal` aborts (the page's Cancel).
 */
export function recordingFetch(log: Exchange[], signal: AbortSignal): Fetch {
  return async (url, init) => {
    const exchange: Exchange = { url, kind: kindOf(url, new Headers(init.headers).get("accept")) };
    log.push(exchange);
    try {
      const signals = init.signal == null ? [signal] : [signal, init.signal];
      // Node's RequestInit type lacks `cache`, which browsers honour: passed as a variable, it type-checks in both.
      const uncached = { ...init, cache: "no-store" as const, signal: AbortSignal.any(signals) };
      const response = await fetch(url, uncached);
      if (response.type === "opaqueredirect") exchange.kind = "redirect";
      exchange.response = response.clone();
      return response;
    } catch (error) {
      exchange.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
}

/** The manifest's answer: the first response to a request for it that is not a redirect. */
export function manifestAnswer(log: Exchange[]): Response | undefined {
  return log.find((e) => e.kind === "manifest" && e.response !== undefined)?.response;
}

/**
 * Where the resolver sent the manifest's request, when the browser followed its redirect; undefined otherwise (a
 * target that does not let this page read it hides even its address from the page).
 */
export function redirectTarget(log: Exchange[]): string | undefined {
  return log.find((e) => e.kind === "manifest" && e.response?.redirected === true)?.response?.url;
}

/** Whether the resolver answered the manifest's request with a redirect. */
export function redirected(log: Exchange[]): boolean {
  return log.some((e) => e.kind === "redirect");
}

/** Whether exchange `i` failed following an opaque redirect: the resolver answered, its target cannot be read. */
function unreadableAfterRedirect(exchanges: Exchange[], i: number): boolean {
  return exchanges[i]?.response === undefined && exchanges[i - 1]?.response?.type === "opaqueredirect";
}

/** Whether the lookup ended at a redirect's target that this page cannot read (not at the resolver). */
export function endedAtUnreadableRedirect(exchanges: Exchange[]): boolean {
  return exchanges.length > 1 && unreadableAfterRedirect(exchanges, exchanges.length - 1);
}

/** A URL as the page prints it: a 3,000-character UMID in one is not printed whole. */
const MAX_URL = 120;

/** One line per exchange, in words. */
export function exchangeWords(exchanges: Exchange[]): string[] {
  return exchanges.map((full, i) => {
    const exchange = { ...full, url: shortened(full.url, MAX_URL) };
    if (exchange.response === undefined) {
      return unreadableAfterRedirect(exchanges, i)
        ? `GET ${exchange.url}, following that redirect: no readable answer ` +
            `(${exchange.error}). The target does not allow this page's origin to read it ` +
            `(no CORS), or cannot be reached; open the request URL in a tab to see where it ` +
            `leads.`
        : exchange.kind === "did"
          ? `GET ${exchange.url}: no answer (${exchange.error}). This is the signer's DID document, which ` +
            `${new URL(full.url).host} serves, not the resolver: is that host up, and does it allow ` +
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
      ? `GET ${exchange.url}: the browser followed the redirect to ${shortened(response.url, MAX_URL)}, ` +
          `which answered ${answer}`
      : `GET ${exchange.url}: ${answer}`;
  });
}
