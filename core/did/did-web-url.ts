/**
 * Where a did:web's DID document is (W3C CCG did:web, "Read (Resolve)"): the
 * method-specific id is a domain name, a port percent-encoded as `%3A`, then
 * `:`-separated path segments. `did:web:example.com` is
 * https://example.com/.well-known/did.json, and `did:web:example.com%3A8443:users:alice`
 * is https://example.com:8443/users/alice/did.json. The specification forbids IP
 * addresses; `localhost` is read over http:, as a browser treats a loopback origin as
 * secure (core/secure-url.ts), so that a publisher can try the resolver on their own
 * machine. Anything a URL parser or a server would read as something else (a user name,
 * a host whose last label is a number, which a URL parser reads as IPv4, a dot segment,
 * an encoded `/` or `\`) is refused rather than mapped.
 */
import { quoted } from "../excerpt.ts";

/** A domain name's labels (RFC 1123), and the optional port. */
const DOMAIN =
  /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?:%3[Aa]([0-9]{1,5}))?$/;
/** DID syntax's idchar (DID Core §3.1): ALPHA, DIGIT, ".", "-", "_", or a percent-encoded octet. */
const ID_CHARS = /^(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/;

export type DidWebUrl = { url: URL } | { fault: string };

/** The URL of the DID document of `did` (a DID, without fragment), or why `did` is no did:web that maps to one. */
export function didWebDocumentUrl(did: string): DidWebUrl {
  if (!did.startsWith("did:web:")) return { fault: `${quoted(did)} is not a did:web` };
  const [authority = "", ...segments] = did.slice("did:web:".length).split(":");
  const [, name, port] = DOMAIN.exec(authority) ?? [];
  // A URL parser reads a host whose last label is a number as an IPv4 address.
  if (name === undefined || /^(?:[0-9]+|0[Xx][0-9A-Fa-f]*)$/.test(name.slice(name.lastIndexOf(".") + 1)))
    return { fault: `its domain ${quoted(authority)} is not a domain name (a did:web names no IP address)` };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
    return { fault: `its port ${port} is not between 1 and 65535` };
  const odd = segments.find((segment) => !isPlainSegment(segment));
  if (odd !== undefined)
    return { fault: `its path segment ${quoted(odd)} is empty, a dot segment, or holds a character a DID cannot` };
  const scheme = name.toLowerCase() === "localhost" ? "http" : "https";
  const path = segments.length === 0 ? "/.well-known" : `/${segments.join("/")}`;
  const text = `${scheme}://${name}${port === undefined ? "" : `:${port}`}${path}/did.json`;
  // A URL parser maps some names to others (punycode it cannot decode throws; IDNA maps characters): none is taken.
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.hostname !== name.toLowerCase())
    return { fault: `its domain ${quoted(name)} is not one a URL names as it is (invalid punycode?)` };
  return { url };
}

function isPlainSegment(segment: string): boolean {
  if (!ID_CHARS.test(segment) || /%(?:2f|5c)/i.test(segment)) return false;
  const dots = segment.replace(/%2e/gi, ".");
  return dots !== "." && dots !== "..";
}
