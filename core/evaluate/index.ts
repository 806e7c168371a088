/**
 * The relying party's evaluator, as a library: `evaluate(manifest, context)` to a
 * structured receipt (core §3.1, §3.3), given the manifest's revocation status when the
 * caller resolved it; `revokedReceipt` for a UMID its resolver answers 410 for; the
 * receipt's JSON Schema; `receiptManifest`, a receipt as a manifest to sign (EXT-OPT O3).
 * Imported as `manifest-resolver/evaluate`; runs in Node, Deno, workerd and browsers.
 */
export {
  evaluate,
  revokedReceipt,
  DEFAULT_STANDARDS_URL,
  type EvaluateOptions,
  type OnlineResolution,
} from "./evaluate.ts";
export { memoryCache, type CachedEntry, type HttpCache } from "../http/http-cache.ts";
export type { Fetch } from "../http/fetch-following.ts";
export { ContextError, resolveContext, type AssuranceClass, type EvaluationContext } from "./context.ts";
export type {
  ClaimStatus,
  ConsentStatus,
  FacetStatus,
  Outcome,
  Receipt,
  UnprocessedEntry,
  Warning,
} from "./receipt.ts";
export { receiptSchema } from "./receipt-schema.ts";
export { receiptManifest, type ReceiptManifest, type ReceiptManifestOptions } from "./receipt-manifest.ts";
export type { Revocation } from "./revocation-input.ts";
