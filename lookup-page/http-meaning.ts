/**
 * The resolver's error answers in plain words, for the page to show beside their JSON
 * (contract §4.3 and its response table: 400 `bad_request` with one of five messages, 404
 * `not_found`, 410 `revoked`).
 */
export function httpMeaning(status: number): string | undefined {
  if (status === 400)
    return (
      "400 Bad Request: the resolver cannot read one UMID in this URL's path: it is " +
      "empty, its encoding is invalid, or there are more path segments than one (as " +
      "when the resolver URL has a path of its own). Its message says which."
    );
  if (status === 404)
    return (
      "404 Not Found: this resolver has no manifest for this UMID. Check the UMID for " +
      "typos, or ask its publisher which resolver serves it."
    );
  if (status === 410)
    return (
      "410 Gone: the publisher revoked this manifest, and the resolver will not serve " +
      "it again. Do not use a copy you may hold."
    );
  if (status >= 500) return `${status}: the resolver failed to answer. Try again later.`;
  return undefined;
}
