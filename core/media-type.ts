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
