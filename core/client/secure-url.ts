/**
 * Where a relying party's client may send a request: `https:`, or plain `http:` to this
 * machine only. EXT-OPT O2.1 makes TLS the only integrity protection of a status response
 * ("evaluators MUST NOT resolve a statusRef over plaintext"), and a resolver's answer or a
 * redirect's target is no different; loopback traffic never leaves the host, so a
 * resolver under test on 127.0.0.1 needs no certificate. The WHATWG URL parser has
 * already normalized the host (`127.1` and `0x7f.0.0.1` are `127.0.0.1`, IPv6 in brackets),
 * so the comparison is on its canonical form.
 */

const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a request to `url` is allowed: `https:`, or `http:` to localhost, 127.0.0.0/8 or [::1]. */
export function isSecureUrl(url: URL): boolean {
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  return url.hostname === "localhost" || url.hostname === "[::1]" || LOOPBACK_IPV4.test(url.hostname);
}

/** Why `baseUrl` cannot be a resolver's base address; undefined when it can. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return `${JSON.stringify(baseUrl)} is not an absolute URL`;
  const url = new URL(baseUrl);
  if (!isSecureUrl(url)) return `${JSON.stringify(baseUrl)} must be https:, or http: to localhost, 127.0.0.0/8 or [::1] (EXT-OPT O2.1: TLS is the only integrity protection)`;
  if (url.search !== "" || url.hash !== "") return `${JSON.stringify(baseUrl)} must not have a query or fragment: the UMID path is appended to it`;
  if (url.username !== "" || url.password !== "") return `${JSON.stringify(baseUrl)} must not carry credentials: resolution is public (contract §5)`;
  return undefined;
}
