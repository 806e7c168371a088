/**
 * What a redirect may send a consumer to: the one rule for `_routes.json` (its schema),
 * `redirect`, `build` and `probe`. The resolver answers 307 with this `Location`, so a
 * relying party follows it without asking: an absolute `https:` URL naming a host (or
 * `http:` to a loopback host, as for everything a client trusts a manifest over:
 * core/secure-url.ts), with no credentials in it, at most 8 KiB (what proxies and browsers reliably
 * carry in a header). The text itself is checked, not only what a URL parser makes of
 * it: the WHATWG parser repairs `https:///etc/passwd` into host `etc`, `https:\\host`
 * into `https://host/`, and drops tabs and line breaks, so a file could say one thing
 * and redirect to another. A location on this machine or a private network is refused
 * when the resolver (`resolverUrl`, UM_RESOLVER_URL) is not on one, since no client that
 * asks it follows one there (core/http/fetch-following.ts, pointsInward); a resolver on
 * one, or none named, is a trial on this machine, as for a statusRef (status-ref.ts).
 * Pure and web-standard, for every runtime.
 */
import { isTrustworthyUrl, pointsInward } from "../secure-url.ts";

export const MAX_LOCATION_BYTES = 8 * 1024;

/**
 * Why `location` cannot be a redirect's target, for a resolver at `resolverUrl` ("" when none is configured);
 * undefined when it can.
 */
export function redirectLocationProblem(location: string, resolverUrl: string): string | undefined {
  const bytes = new TextEncoder().encode(location).length;
  if (bytes > MAX_LOCATION_BYTES)
    return `is ${bytes} bytes long; a redirect location is at most ${MAX_LOCATION_BYTES} bytes`;
  if (!/^[\x21-\x7e]*$/.test(location))
    return "must be printable ASCII, without spaces or control characters (percent-encode anything else)";
  if (location.includes("\\")) return "must not contain a backslash, which URL parsers read as a slash";
  const authority = /^https?:\/\/([^/?#]*)/i.exec(location)?.[1];
  if (authority === undefined) return "must be an absolute http: or https: URL (https://host/…)";
  if (authority.includes("@")) return "must not carry credentials (user:password@) before the host";
  if (authority === "" || authority.startsWith(":")) return "must name a host right after the //";
  if (!URL.canParse(location) || new URL(location).hostname === "") return "is not a valid URL";
  // What a client follows (core/http/fetch-following.ts): a redirect it refuses reads as a manifest not found.
  if (!isTrustworthyUrl(location))
    return "must be https:, or http: to a loopback host (localhost, 127.0.0.0/8, [::1]): no client follows plain http";
  if (resolverUrl !== "" && pointsInward(location, resolverUrl))
    return (
      `is on a local or private address, and the resolver (${resolverUrl}) is not: no client that asks it follows ` +
      "a redirect to its own machine or network"
    );
  return undefined;
}
