/**
 * The relying party's client (contract §4.3, §1.6; EXT-OPT O2): resolve a UMID at a
 * resolver, follow its redirect, resolve the manifest's status, and evaluate it (core
 * §3.1) to a receipt. A UMID the resolver answers 410 for gets the revoked receipt; one
 * it does not know (404), cannot answer (5xx), or that leads nowhere safe is "not
 * resolvable", with one line saying why. Web-standard APIs only (fetch, URL, WebCrypto
 * through the evaluator), for Node, Deno, workerd and browsers.
 *
 * Caching is the HttpCache given (http-cache.ts), for the manifest and its status alike,
 * with every time read from the evaluation clock. Whatever the cache holds, a manifest past
 * its `expiresAt` is never used as fresh (contract §1.6): it is revalidated, and if what
 * comes back is still expired the evaluator rejects it (freshnessCheck "expired").
 */
import { DEFAULT_LIMITS } from "../evaluate/arrive.ts";
import { evaluate, revokedReceipt, type EvaluateOptions } from "../evaluate/evaluate.ts";
import { resolveContext, type EvaluationContext } from "../evaluate/context.ts";
import type { Receipt } from "../evaluate/receipt.ts";
import { isJsonObject, parseJson, type ShapeLimits } from "../json/strict-json.ts";
import { umidPath } from "../umid-path.ts";
import { freshnessProblems } from "../validate/freshness.ts";
import { cachedGet } from "./conditional-get.ts";
import type { Fetch } from "./fetch-following.ts";
import { storedWithin, type HttpCache } from "./http-cache.ts";
import { baseUrlProblem } from "./base-url.ts";
import { resolveStatus } from "./status-resolution.ts";

export interface ResolveOptions extends Omit<EvaluateOptions, "revocation"> {
  /** The evaluation context (its `now` is also the clock of every cache decision). Default {}. */
  context?: EvaluationContext;
  /** Default: the global fetch. */
  fetch?: Fetch;
  /** Where responses are kept between calls. Default: none, every call asks. */
  cache?: HttpCache;
  /** Milliseconds each request may take. Default 10 000. */
  timeoutMs?: number;
}

export interface Resolved {
  receipt: Receipt;
  /** Where the manifest came from, after any redirects (or the URL that answered 410). */
  manifestUrl: string;
  /** The manifest as read, when it is a JSON object; use it only as the receipt allows. */
  manifest?: Record<string, unknown>;
}

export interface NotResolvable {
  /** One line: what was asked, of which URL, and what came back. */
  reason: string;
  /** The HTTP status that ended it, when one did. */
  status?: number;
}

export type Resolution = Resolved | NotResolvable;

const DEFAULT_TIMEOUT_MS = 10_000;
const MANIFEST_TYPES = "application/ld+json, application/json";

/**
 * Resolves `umid` at the resolver at `baseUrl` (https:, or http: to a loopback address)
 * and evaluates what it finds. Throws TypeError for an unusable `baseUrl` and ContextError
 * for an unusable context; every fault of the resolver, the manifest or its status is in
 * the result.
 */
export async function resolve(baseUrl: string, umid: string, options: ResolveOptions = {}): Promise<Resolution> {
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) throw new TypeError(`baseUrl ${problem}`);
  const now = resolveContext(options.context).now;
  // One clock for every decision: the cache's, and the evaluator's.
  const context: EvaluationContext = { ...options.context, now: now.toISOString() };
  const { fetch: given, cache, timeoutMs, context: _, ...evaluateOptions } = options;
  const transport = { fetch: given ?? ((url: string, init: RequestInit) => fetch(url, init)), timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };

  const url = baseUrl.replace(/\/+$/, "") + umidPath(umid);
  const got = await cachedGet({
    url,
    accept: MANIFEST_TYPES,
    maxBytes: limits.maxManifestBytes,
    now: now.getTime(),
    cache,
    transport,
    judge: (entry) => ({ fresh: storedWithin(entry, entry.maxAge, now.getTime()) && !expired(entry.body, now, limits), validator: entry.etag }),
  });
  switch (got.kind) {
    case "insecure":
    case "unreachable":
      return { reason: got.reason };
    case "status":
      if (got.status === 410) return { receipt: revokedReceipt(umid, context), manifestUrl: got.url };
      return { reason: got.status === 404 ? `${JSON.stringify(umid)} not found: ${got.url} answered 404` : `${got.url} answered ${got.status}, not a manifest`, status: got.status };
    case "raw":
      return { receipt: await evaluate(got.bytes, context, evaluateOptions), manifestUrl: got.url };
  }
  const manifest = manifestOf(got.entry.body, limits);
  const id = manifest?.["@id"];
  if (typeof id === "string" && id !== umid) return { reason: `the manifest at ${got.entry.url} has @id ${JSON.stringify(id)}, not the UMID asked for, ${JSON.stringify(umid)}` };
  await got.save();
  const revocation = manifest === undefined ? undefined : await resolveStatus(manifest, { now: now.getTime(), cache, transport });
  const receipt = await evaluate(got.entry.body, context, { ...evaluateOptions, ...(revocation !== undefined && { revocation }) });
  return { receipt, manifestUrl: got.entry.url, ...(manifest !== undefined && { manifest }) };
}

function manifestOf(body: string, limits: ShapeLimits): Record<string, unknown> | undefined {
  const parsed = parseJson(body.startsWith("\uFEFF") ? body.slice(1) : body, limits);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}

/** Past its expiresAt at `now`; a body that is not a manifest has no expiry to trust, and counts as expired. */
function expired(body: string, now: Date, limits: ShapeLimits): boolean {
  const manifest = manifestOf(body, limits);
  return manifest === undefined || freshnessProblems(manifest, now).some((p) => p.rule === "time/expired");
}
