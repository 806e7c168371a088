/**
 * Two questions about a URL, kept apart.
 *
 * Which URLs may carry what nothing else protects (a status document has no signature of
 * its own, EXT-OPT O2.1; a redirect decides which manifest is fetched): `https:`, or
 * `http:` to a loopback host, which browsers also treat as a secure context (W3C Secure
 * Contexts §3.1, "potentially trustworthy": localhost names and 127.0.0.0/8, ::1). Of the
 * localhost names, only `localhost` itself: Node looks up `x.localhost` in DNS, which may
 * answer with any address.
 *
 * Where a remote party may send the client (isLocalOrPrivateHost, pointsInward): a URL a
 * resolver names (a discovery peer, a statusRef, a redirect's Location, a did:web) must not
 * lead the relying party to its own machine or network when that resolver is not there
 * itself. This is judged on the host as a URL parser leaves it, every spelling of one
 * address alike (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`, `0x7f.1` is `127.0.0.1`); a
 * public name whose DNS answer is private (rebinding) is beyond what a URL says.
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

/** IPv4 ranges of this machine or a private network: [network address, prefix length]. */
const LOCAL_IPV4: readonly [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8, "this network": 0.0.0.0 reaches this machine
  [0x7f000000, 8], // loopback
  [0x0a000000, 8], // private (RFC 1918)
  [0xac100000, 12],
  [0xc0a80000, 16],
  [0xa9fe0000, 16], // link-local, cloud metadata services among them
  [0x64400000, 10], // shared address space (CGNAT, RFC 6598)
  [0xc6120000, 15], // benchmarking (RFC 2544), a test network's
];

/**
 * Whether `hostname` (as a URL parser leaves it, or any spelling a URL parser reads) names this machine or a private
 * network: a localhost name (RFC 6761), IPv4 0.0.0.0/8, 127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16,
 * 169.254.0.0/16, 100.64.0.0/10, 198.18.0.0/15; IPv6 ::, ::1, fc00::/7, fe80::/10, and an IPv4 address that is one
 * of those mapped (::ffff:0:0/96) or embedded (::/96, NAT64's 64:ff9b::/96, 6to4's 2002::/16) in IPv6.
 */
export function isLocalOrPrivateHost(hostname: string): boolean {
  const host = URL.canParse(`http://${hostname}/`) ? new URL(`http://${hostname}/`).hostname : hostname.toLowerCase();
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const ipv4 = ipv4Number(host);
  if (ipv4 !== undefined) return isLocalIpv4(ipv4);
  const groups = host.startsWith("[") && host.endsWith("]") ? ipv6Groups(host.slice(1, -1)) : undefined;
  if (groups === undefined) return false;
  const [first = 0] = groups;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return true;
  // 2002:a.b.c.d::/48 (6to4) and 64:ff9b::a.b.c.d (NAT64, RFC 6052) reach a.b.c.d.
  if (first === 0x2002) return isLocalIpv4(groups[1]! * 0x10000 + groups[2]!);
  if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return isLocalIpv4(groups[6]! * 0x10000 + groups[7]!);
  if (groups.slice(0, 5).some((group) => group !== 0)) return false;
  // ::ffff:a.b.c.d is a.b.c.d; ::a.b.c.d (deprecated) too, whose 0.0.0.0/8 holds :: and ::1.
  if (groups[5] !== 0 && groups[5] !== 0xffff) return false;
  return isLocalIpv4(groups[6]! * 0x10000 + groups[7]!);
}

/** Whether `target`, named by a party at `from`, leads to a local or private host while `from` is not on one. */
export function pointsInward(target: string | URL, from: string | URL | undefined): boolean {
  const host = (url: string | URL) =>
    typeof url === "string" ? (URL.canParse(url) ? new URL(url).hostname : "") : url.hostname;
  return isLocalOrPrivateHost(host(target)) && (from === undefined || !isLocalOrPrivateHost(host(from)));
}

function isLocalIpv4(address: number): boolean {
  return LOCAL_IPV4.some(([range, bits]) => address >>> (32 - bits) === range >>> (32 - bits));
}

/** The dotted-decimal IPv4 address a URL parser leaves, as a number. */
function ipv4Number(host: string): number | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (match === null) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.some((octet) => octet > 255) ? undefined : octets.reduce((sum, octet) => sum * 256 + octet, 0);
}

/** The eight 16-bit groups of an IPv6 address as a URL parser serializes it (hex, `::` compressed). */
function ipv6Groups(address: string): number[] | undefined {
  const [head = "", tail, more] = address.split("::");
  if (more !== undefined) return undefined;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if ((tail === undefined ? missing !== 0 : missing < 1) || [...left, ...right].some((g) => !(g >= 0 && g <= 0xffff)))
    return undefined;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}
