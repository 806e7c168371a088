/**
 * Build settings that a publisher may change, with their defaults.
 *
 * `UM_STANDARDS_URL` names the site that hosts the specification; manifests must use the
 * context `{standards_url}/ns/v0.4`. It defaults to the namespace of the public v0.4
 * specification and conformance suite.
 */
export const DEFAULT_STANDARDS_URL = "https://universalmanifest.net";

export function contextUrl(standardsUrl = process.env.UM_STANDARDS_URL || DEFAULT_STANDARDS_URL): string {
  return `${standardsUrl.replace(/\/+$/, "")}/ns/v0.4`;
}
