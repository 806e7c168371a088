/**
 * The six-stage evaluation of core §3.1 (Arrive, Verify, Project, Consent, Compose,
 * Receipt) of one manifest, under a pinned evaluation context, to a structured receipt.
 * Web-standard APIs only (WebCrypto for Ed25519 and SHA-256), so the same module runs in
 * Node, Deno, workerd and a browser. A rejection at Arrive or Verify cuts the sequence
 * short (§3.1: "MAY short-circuit"), leaving later checks "not-evaluated" and every facet
 * "not-projected". The
 * revocation status is an input, resolved by the caller (core/client/), so evaluation
 * itself does no I/O and is a function of its arguments.
 */
import { globalFetch, type Fetch } from "../http/fetch-following.ts";
import { guardedCache, memoryCache, type HttpCache } from "../http/http-cache.ts";
import type { KeyPins } from "../crypto/profile-a.ts";
import { resolveKeyRefOnline } from "../did/resolve-key-ref.ts";
import type { SourceMap } from "../json/source-map.ts";
import { quoted } from "../excerpt.ts";
import { arrive, mediaTypeWarning } from "./arrive.ts";
import { DEFAULT_LIMITS, type Limits } from "./limits.ts";
import { compose } from "./compose.ts";
import { consent } from "./consent.ts";
import { resolveContext, type EvaluationContext, type ResolvedContext } from "./context.ts";
import { blankReceipt, warn, type Evaluation, type RemoteResolver } from "./evaluation.ts";
import { project, rejectedFacets } from "./project.ts";
import type { Receipt, ReceiptDraft, Warning } from "./receipt.ts";
import { withReceiptId } from "./receipt-id.ts";
import { recordRevocation } from "./revocation.ts";
import type { Revocation } from "./revocation-input.ts";
import { verify } from "./verify.ts";

export const DEFAULT_STANDARDS_URL = "https://universalmanifest.net";
const DEFAULT_TIMEOUT_MS = 10_000;
/** DID documents this process fetched without a cache of the caller's: a few hundred at 64 KiB at most each. */
const didDocuments = memoryCache(4 * 1024 * 1024);

/** How keyRefs are resolved over the network: the deprecated `online` option's object. */
export interface OnlineResolution {
  fetch?: Fetch | undefined;
  cache?: HttpCache | undefined;
  timeoutMs?: number | undefined;
}

export interface EvaluateOptions {
  /**
   * The standards site whose `/ns/v0.4` (or `/ns/v0.3`) namespace a manifest must use. Default
   * https://universalmanifest.net.
   */
  standardsUrl?: string;
  /**
   * Keys this relying party resolved out of band, SPKI (standard base64) by keyRef. When
   * given, a keyRef must be among them and an embedded key must equal its key byte for
   * byte (core §1.6.4), and `keyRefResolution` is "resolved". Without them, a did:key or
   * did:jwk keyRef is resolved to the key it is, held to the same equality; for any other
   * keyRef the embedded key is used and "unresolved" recorded.
   */
  keys?: Readonly<Record<string, string>>;
  /**
   * Resolve no keyRef over the network (core §1.6.4, step 4): only did:key, did:jwk and pinned `keys`, and any other
   * keyRef is "unresolved", with `keyRefResolutionReason` `um:reason:key:offline` (did:web) or
   * `um:reason:key:unsupported-method`. Default false: a did:web's document is fetched with `fetch` (https:, or http:
   * to localhost; same-origin redirects only; 64 KiB; `timeoutMs`), and kept in `cache` by its HTTP caching headers.
   * Pinned `keys` are never looked up.
   */
  offline?: boolean;
  /** Default: the global fetch. */
  fetch?: Fetch;
  /** Where DID documents are kept between evaluations. Default: a bounded cache in memory, for the process. */
  cache?: HttpCache;
  /** Milliseconds a request may take. Default 10 000. */
  timeoutMs?: number;
  /**
   * @deprecated Goes in 0.2. Its `true` is the default now, its `false` is `offline: true`, and its object's `fetch`,
   * `cache` and `timeoutMs` are the options of those names. Read only when `offline` is not given.
   */
  online?: boolean | OnlineResolution;
  /** Resource limits (core §6.3); default 1 MiB, depth 10, 1000 items per array. */
  limits?: Partial<Limits>;
  /**
   * The manifest's status as the caller resolved it from `signature.statusRef` (EXT-OPT
   * O2; `resolve` of manifest-resolver/client does), recorded at Verify step 3 once the
   * signature and freshness hold: "revoked" rejects, "suspended" and an "unchecked" with a
   * reason `code` add a warning (revocation.ts). Without it: "unchecked", no warning.
   */
  revocation?: Revocation;
  /**
   * The `Content-Type` the manifest was answered with, when it came over HTTP (null: the
   * answer had none); `resolve` of manifest-resolver/client passes it. One that is not a
   * JSON media type is a warning (rule `resolve/media-type`). Not given: not checked, as a
   * file has no media type.
   */
  contentType?: string | null;
  /**
   * The UMID the manifest was asked for, when it was (`resolve` of manifest-resolver/client passes it): a manifest
   * whose `@id` is another is rejected before Verify, `um:reason:arrive:umid-mismatch` (rule `resolve/umid-mismatch`).
   */
  umid?: string;
}

/**
 * Evaluates a manifest: its text (strictly parsed; preferred, as only the text shows
 * duplicate member names), its UTF-8 bytes, or an object parsed already. Throws
 * ContextError for an unusable context; any fault of the manifest is in the receipt.
 */
export async function evaluate(
  manifest: string | Uint8Array | Record<string, unknown>,
  context: EvaluationContext = {},
  options: EvaluateOptions = {},
): Promise<Receipt> {
  return (await evaluateWithSourceMap(manifest, context, options)).receipt;
}

/** What the client (core/client/resolve.ts) adds to an evaluation. */
export interface ClientEvaluation {
  /** How keyRefs are resolved over the network, when not as `options.online` says: the client's, which remembers. */
  resolveRemote?: RemoteResolver | undefined;
  /**
   * The client's reason not to use this body at all, whoever signed it (its resolver's log does not vouch for it):
   * the manifest is rejected before Verify, with this warning.
   */
  refusal?: Warning | undefined;
}

/**
 * `evaluate`, with where the values of a manifest given as text or bytes are when it was
 * not read as one (`source`), to place the receipt's warnings in it: for the CLI, which
 * prints them as diagnostics; not part of the library.
 */
export async function evaluateWithSourceMap(
  manifest: string | Uint8Array | Record<string, unknown>,
  context: EvaluationContext,
  options: EvaluateOptions,
  { resolveRemote, refusal }: ClientEvaluation = {},
): Promise<{ receipt: Receipt; source?: SourceMap }> {
  const resolved = resolveContext(context);
  const receipt = blankReceipt();
  const mediaType = options.contentType === undefined ? undefined : mediaTypeWarning(options.contentType);
  if (mediaType !== undefined) receipt.warnings.push(mediaType);
  if (refusal !== undefined) receipt.warnings.push(refusal);
  const arrival = await arrive(
    manifest,
    { ...DEFAULT_LIMITS, ...options.limits },
    (options.standardsUrl ?? DEFAULT_STANDARDS_URL).replace(/\/+$/, ""),
  );
  if (!arrival.ok) {
    receipt.manifestId = arrival.manifestId;
    receipt.warnings.push(...arrival.warnings);
    return { receipt: await stamped(receipt, resolved), ...(arrival.source && { source: arrival.source }) };
  }
  const ev: Evaluation = {
    receipt,
    context: resolved,
    manifest: arrival.manifest,
    version: arrival.version,
    members: arrival.members,
    pins: keyPins(options.keys),
    resolveRemote: resolveRemote ?? remoteResolver(networkOptions(options), resolved.now.getTime()),
    revocation: options.revocation,
    rejected: refusal !== undefined,
  };
  receipt.manifestId = String(arrival.manifest["@id"]);
  // A body the client refused is not verified: nothing of it is used.
  if (!ev.rejected) {
    if (options.umid !== undefined && receipt.manifestId !== options.umid) umidMismatch(ev, options.umid);
    else await verify(ev);
  }
  if (ev.rejected) receipt.facetStatuses = rejectedFacets(ev);
  else {
    project(ev);
    consent(ev);
  }
  receipt.outcome = compose(ev);
  return { receipt: await stamped(receipt, resolved) };
}

/**
 * The receipt for a UMID known to be revoked without a manifest to evaluate: its resolver
 * answers 410 Gone (contract §3.1: "known and revoked"), or the relying party saw it
 * revoked before (EXT-OPT O2.3: permanent). It is rejected with `revocationStatus:
 * "revoked"` and every check "not-evaluated"; `revocation` gives the warning's words, and
 * rule, in place of the 410's. Throws ContextError for an unusable context, as `evaluate` does.
 */
export async function revokedReceipt(
  manifestId: string,
  context: EvaluationContext = {},
  revocation: Omit<Revocation, "status"> = {},
): Promise<Receipt> {
  const resolved = resolveContext(context);
  const ev = { receipt: blankReceipt(), rejected: false };
  ev.receipt.manifestId = manifestId;
  recordRevocation(ev, {
    message: `the resolver answers 410 Gone for ${quoted(manifestId)}: the manifest is revoked`,
    ...revocation,
    status: "revoked",
  });
  return stamped(ev.receipt, resolved);
}

function stamped(receipt: ReceiptDraft, context: ResolvedContext): Promise<Receipt> {
  if (!context.omitProcessedAt) receipt.processedAt = context.now.toISOString();
  return withReceiptId(receipt);
}

/** A manifest served for another UMID than the one asked: not the one the relying party wants, whoever signed it. */
function umidMismatch(ev: Evaluation, umid: string): void {
  warn(ev, true, {
    code: "um:reason:arrive:umid-mismatch",
    message: `the manifest's @id is ${quoted(ev.receipt.manifestId)}, not the UMID asked for, ${quoted(umid)}`,
    rule: "resolve/umid-mismatch",
    pointer: "/@id",
  });
}

/**
 * One guarded wrapper per cache given (core/http/http-cache.ts): evaluations that fill one cache then share the
 * fetches they make at once (core/did/did-web.ts), as they share what it keeps.
 */
const guardedCaches = new WeakMap<HttpCache, HttpCache>();

function guarded(cache: HttpCache): HttpCache {
  const wrapper = guardedCaches.get(cache) ?? guardedCache(cache);
  guardedCaches.set(cache, wrapper);
  return wrapper;
}

/** How `options` say keyRefs are resolved over the network, the deprecated `online` read as it stands for; undefined: not. */
function networkOptions(options: EvaluateOptions): OnlineResolution | undefined {
  const { offline, online } = options;
  if (offline === true || (offline === undefined && online === false)) return undefined;
  const given = offline === undefined && typeof online === "object" ? online : {};
  return {
    fetch: options.fetch ?? given.fetch,
    cache: options.cache ?? given.cache,
    timeoutMs: options.timeoutMs ?? given.timeoutMs,
  };
}

/**
 * The resolver of keyRefs over the network `how` describes, at the evaluation clock `now`; none without. `from`: the
 * base URL of the resolver that served the manifest, when one did (core/did/did-web.ts).
 */
export function remoteResolver(
  how: OnlineResolution | undefined,
  now: number,
  from?: string,
): RemoteResolver | undefined {
  if (how === undefined) return undefined;
  const cache = how.cache === undefined ? didDocuments : guarded(how.cache);
  const transport = { fetch: how.fetch ?? globalFetch, timeoutMs: how.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  return (keyRef) => resolveKeyRefOnline(keyRef, { transport, cache, now, ...(from !== undefined && { from }) });
}

function keyPins(keys: Readonly<Record<string, string>> | undefined): KeyPins | undefined {
  if (keys === undefined) return undefined;
  return {
    file: "the evaluator's keys",
    keys: new Map(Object.entries(keys).map(([keyRef, spki]) => [keyRef, { spki, place: `keys[${quoted(keyRef)}]` }])),
  };
}
