/**
 * The media type of a `Content-Type` (RFC 9110 §8.3.1): its type and subtype, lowercased
 * (they are case-insensitive), without parameters. A manifest is JSON-LD, so a resolver
 * answers one as `application/ld+json` (contract §4.3), and `application/json` or any
 * `+json` type (RFC 6839 §3.1) is JSON all the same; a status document must be exactly
 * `application/json` (EXT-OPT O2.1).
 */

/** The media type of `contentType`, such as "application/ld+json"; undefined when there is none. */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  const essence = contentType == null ? undefined : contentType.split(";")[0]!.trim().toLowerCase();
  return essence === "" ? undefined : essence;
}

/**
 * Whether `mediaType` is JSON text: application/json, or a type with the +json suffix (application/ld+json among
 * them).
 */
export function isJsonMediaType(mediaType: string | undefined): boolean {
  return mediaType === "application/json" || /^[^\s/]+\/[^\s/]+\+json$/.test(mediaType ?? "");
}

/**
 * Which of `offered` (media types without parameters, the server's preference first) an `Accept` header prefers
 * (RFC 9110 §12.5.1): each offered type takes the weight of the most specific range that matches it (`text/html`
 * before `text/*` before `*\/*`), and the highest weight above 0 wins, the earlier offered on a tie. A range's other
 * parameters are not matched (no client sends them for the types offered here), and a range with an unreadable
 * weight is ignored. No header at all accepts anything: the first offered.
 */
export function preferredMediaType(accept: string | null, offered: readonly string[]): string | undefined {
  if (accept === null) return offered[0];
  const ranges = accept.split(",").flatMap((part) => {
    const [range, ...parameters] = part.split(";");
    const [type, subtype] = range!.trim().toLowerCase().split("/");
    if (type === undefined || subtype === undefined || type === "" || subtype === "") return [];
    if (type === "*" && subtype !== "*") return [];
    const q = parameters.map((p) => p.split("=")).find(([name]) => name!.trim().toLowerCase() === "q")?.[1];
    const weight = q === undefined ? 1 : qValue(q.trim());
    return weight === undefined ? [] : [{ type, subtype, weight }];
  });
  let best: { type: string; weight: number } | undefined;
  for (const mediaType of offered) {
    const [type, subtype] = mediaType.split("/");
    let match: { specificity: number; weight: number } | undefined;
    for (const range of ranges) {
      const specificity =
        range.type === type && range.subtype === subtype
          ? 2
          : range.type === type && range.subtype === "*"
            ? 1
            : range.type === "*"
              ? 0
              : -1;
      if (specificity > (match?.specificity ?? -1)) match = { specificity, weight: range.weight };
    }
    if (match !== undefined && match.weight > 0 && match.weight > (best?.weight ?? 0))
      best = { type: mediaType, weight: match.weight };
  }
  return best?.type;
}

/** A weight (RFC 9110 §12.4.2: `0` to `1`, at most three decimals), or undefined when it is no such number. */
function qValue(text: string): number | undefined {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : undefined;
}
