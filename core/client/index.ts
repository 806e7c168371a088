/**
 * The relying party's client, as a library: `resolve(baseUrl, umid, options)` fetches a
 * manifest from a resolver (contract §4.3), resolves its status (EXT-OPT O2) and evaluates
 * it (core §3.1) to a receipt, through an HTTP cache and a memory of what it saw (a
 * revocation, a log's checkpoint), both of the caller's choosing. Imported as
 * `manifest-resolver/client`; web-standard APIs only, for Node, Deno, workerd and browsers.
 */
export { resolve, type NotResolvable, type Resolution, type Resolved, type ResolveOptions } from "./resolve.ts";
export type { AnsweredStatus } from "./status-resolution.ts";
export { verifyProof } from "./verify-proof.ts";
export type { ProofVerdict, VerifyProofOptions } from "./offline-proof.ts";
export { cachedEntryOf, memoryCache, type CachedEntry, type HttpCache } from "../http/http-cache.ts";
export {
  DEFAULT_MEMORY_BOUNDS,
  oldestSuspension,
  rememberedOf,
  roomFor,
  stays,
  trustMemory,
  type MemoryBounds,
  type MemoryCounts,
  type Remembered,
  type TrustMemory,
} from "./trust-memory.ts";
export { baseUrlProblem, originProblem } from "../http/base-url.ts";
export { MAX_REDIRECTS, type Fetch } from "../http/fetch-following.ts";
// From their own modules, not the evaluator's index: that one also exports the receipt's JSON Schema, which a bundle of
// the client would then carry.
export { ContextError, type EvaluationContext } from "../evaluate/context.ts";
export type { Receipt } from "../evaluate/receipt.ts";
