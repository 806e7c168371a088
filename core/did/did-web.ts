/**
 * did:web (W3C CCG did:web, "Read (Resolve)"): where a DID's document is. The
 * method-specific id is a domain name, a port after a percent-encoded colon (`%3A`), then
 * optional path segments separated by `:`; `did:web:example.com` is at
 * `https://example.com/.well-known/did.json`, `did:web:example.com%3A8443:users:alice` at
 * `https://example.com:8443/users/alice/did.json`.
 */

/** DID syntax's idchar (DID Core §3.1): ALPHA, DIGIT, ".", "-", "_", or a percent-encoded octet. */
const ID_CHARS = /^(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/;
/** A domain name's labels (RFC 1123), and the optional port. */
const DOMAIN =
  /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?:%3[Aa]([0-9]{1,5}))?$/;

/**
 * The HTTPS URL of `did`'s document; undefined when `did` (without a fragment) is not a
 * did:web this code can map: no domain name (an IP address is not one: the specification
 * forbids it), or a path segment that a URL parser or a server would read as something
 * else (`.`, `..`, an encoded `/` or `\`).
 */
export function didWebDocumentUrl(did: string): URL | undefined {
  if (!did.startsWith("did:web:")) return undefined;
  const [domain, ...segments] = did.slice("did:web:".length).split(":");
  const host = DOMAIN.exec(domain!);
  if (host === null) return undefined;
  const [, name, port] = host;
  const lastLabel = name!.slice(name!.lastIndexOf(".") + 1);
  // A URL parser reads a host whose last label is a number as an IPv4 address.
  if (/^(?:[0-9]+|0[Xx][0-9A-Fa-f]*)$/.test(lastLabel)) return undefined;
  if (!segments.every(isPlainSegment)) return undefined;
  const path = segments.length === 0 ? "/.well-known" : `/${segments.join("/")}`;
  try {
    return new URL(`https://${name}${port === undefined ? "" : `:${port}`}${path}/did.json`);
  } catch {
    // A port past 65535.
    return undefined;
  }
}

function isPlainSegment(segment: string): boolean {
  if (!ID_CHARS.test(segment) || /%(?:2f|5c)/i.test(segment)) return false;
  const dots = segment.replace(/%2e/gi, ".");
  return dots !== "." && dots !== "..";
}
