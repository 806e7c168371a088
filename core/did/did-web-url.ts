/**
 * Where a did:web's DID document is (W3C CCG did:web §3.2, Read): the method-specific id
 * is a domain name, a port percent-encoded as `%3A`, then `:`-separated path segments.
 * `did:web:example.com` is https://example.com/.well-known/did.json, and
 * `did:web:example.com:users:alice` is https://example.com/users/alice/did.json. The
 * specification forbids IP addresses; `localhost` is read over http:, as a browser treats
 * a loopback origin as secure (core/secure-url.ts), so that a publisher can try the
 * resolver on their own machine. Anything a URL parser would read differently (a user
 * name, a `/`, `?` or `#` in a segment, a dot segment) is refused rather than mapped.
 */
import { quoted } from "../excerpt.ts";

const DOMAIN =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;
const SEGMENT = /^(?:[A-Za-z0-9._~!$&'()*+,;=@-]|%[0-9A-Fa-f]{2})+$/;

export type DidWebUrl = { url: string } | { fault: string };

/** The URL of the DID document of `did` (a DID, without fragment), or why `did` is no did:web. */
export function didWebDocumentUrl(did: string): DidWebUrl {
  if (!did.startsWith("did:web:")) return { fault: `${quoted(did)} is not a did:web` };
  const [authority = "", ...segments] = did.slice("did:web:".length).split(":");
  const [, host = "", port] = /^(.*?)(?:%3[Aa](\d{1,5}))?$/s.exec(authority) ?? [];
  if (!DOMAIN.test(host) || IPV4.test(host))
    return { fault: `its domain ${quoted(host)} is not a domain name (a did:web names no IP address)` };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
    return { fault: `its port ${port} is not between 1 and 65535` };
  const path: string[] = [];
  for (const segment of segments) {
    const decoded = SEGMENT.test(segment) ? safeDecode(segment) : undefined;
    if (decoded === undefined || /[/?#\\]/.test(decoded) || decoded === "." || decoded === "..")
      return { fault: `its path segment ${quoted(segment)} is empty, a dot segment, or holds /, ?, # or \\` };
    path.push(encodeURIComponent(decoded));
  }
  const scheme = host.toLowerCase() === "localhost" ? "http" : "https";
  const origin = `${scheme}://${host.toLowerCase()}${port === undefined ? "" : `:${Number(port)}`}`;
  return { url: `${origin}/${path.length === 0 ? ".well-known" : path.join("/")}/did.json` };
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
