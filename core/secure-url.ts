/**
 * Which URLs may carry what nothing else protects (a status document has no signature of
 * its own, EXT-OPT O2.1; a redirect decides which manifest is fetched): `https:`, or
 * `http:` to a loopback host, which browsers also treat as a secure context (W3C Secure
 * Contexts §3.1, "potentially trustworthy": localhost names and 127.0.0.0/8, ::1). Of the
 * localhost names, only `localhost` itself: Node looks up `x.localhost` in DNS, which may
 * answer with any address.
 */

export function isTrustworthyUrl(url: string | URL): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return false;
  }
  if (parsed.protocol === "https:") return true;
  return parsed.protocol === "http:" && isLoopbackHost(parsed.hostname);
}

/** `hostname` as a URL parser leaves it (lower case, IPv4 normalized, IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "localhost." ||
    hostname === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}
