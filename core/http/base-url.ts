/**
 * What a resolver's base address must be for the client (contract §4.3: `{base_url}` then
 * `/{UMID_PATH}`): a URL a manifest can be trusted over (core/secure-url.ts: https:, or
 * http: to a loopback host, EXT-OPT O2.1's rule for what carries no signature of its own),
 * to which the UMID path can be appended (no query, no fragment), asking for no
 * credentials (contract §5: resolution is public).
 */
import { isTrustworthyUrl } from "../secure-url.ts";

/** Why `baseUrl` cannot be a resolver's base address; undefined when it can. */
export function baseUrlProblem(baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return `${JSON.stringify(baseUrl)} is not an absolute URL`;
  const url = new URL(baseUrl);
  if (!isTrustworthyUrl(url))
    return `${JSON.stringify(baseUrl)} must be https:, or http: to a loopback host (localhost, 127.0.0.0/8, [::1])`;
  // The parser leaves search and hash empty for a bare "?" or "#": the text is what a path is appended to.
  if (/[?#]/.test(baseUrl))
    return `${JSON.stringify(baseUrl)} must not have a query or fragment: the UMID path is appended to it`;
  if (url.port === "0") return `${JSON.stringify(baseUrl)} names port 0, which no request can reach`;
  if (url.username !== "" || url.password !== "")
    return `${JSON.stringify(baseUrl)} must not carry credentials: resolution is public (contract §5)`;
  return undefined;
}

/** Why `origin` is not an origin (`https://status.example`, as URL.origin spells it); undefined when it is one. */
export function originProblem(origin: string): string | undefined {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  return url !== undefined && url.origin !== "null" && url.origin === origin.replace(/\/$/, "")
    ? undefined
    : `${JSON.stringify(origin)} is not an origin, such as https://status.example`;
}
