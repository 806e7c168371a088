/**
 * The limits of core §6.3, which a deployment may change and must then document. Their own module: the client's status
 * lists and discovery read them too, and are bundled apart from the evaluator (scripts/lookup-page-files/bundled-apart.ts).
 */
import type { ShapeLimits } from "../json/strict-json.ts";

export interface Limits extends ShapeLimits {
  maxManifestBytes: number;
}
export const DEFAULT_LIMITS: Limits = { maxManifestBytes: 1_048_576, maxDepth: 10, maxArrayItems: 1000 };
