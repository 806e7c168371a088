/**
 * The relying party's client (contract §4.3, §1.6; EXT-OPT O2): resolve a UMID at a
 * resolver, follow its redirect, resolve the manifest's status, and evaluate it (core
 * §3.1) to a receipt. A UMID the resolver answers 410 for gets the revoked receipt; one
 * it does not know (404), cannot answer (5xx), or that leads nowhere safe is "not
 * resolvable", with one line saying why; once a manifest's body arrived, there is always a
 * receipt (core §3.3), rejected for one whose @id is another UMID's. Web-standard APIs only (fetch, URL, WebCrypto
 * through the evaluator), for Node, Deno, workerd and browsers.
 *
 * Caching is the HttpCache given (http-cache.ts), for the manifest and its status alike,
 * with every time read from the evaluation clock. Whatever the cache holds, a manifest past
 * its `expiresAt` is never used as fresh (contract §1.6): it is revalidated, and if what
 * comes back is still expired the evaluator rejects it (freshnessCheck "expired"). The
 * statuses seen are kept apart, in the client's memory (trust-memory.ts, status-memory.ts),
 * which no traffic evicts, so that a revocation is never forgotten and a suspension never
 * rolled back. A cache that fails costs time, never a verdict: the resolution goes on
 * without it, and says why in `cacheFailure`; a memory that fails, or is full, is said in
 * `memoryFailure`.
 *
 * With `logKey` or `logPolicy`, every answer is proven against the resolver's
 * transparency log (latest-logged.ts; with a policy, its checkpoint cosigned by its
 * quorum of witnesses), and one the log does not vouch for is refused: a body by a rejected
 * receipt whose warning says why (rules log/*), a 410 by a revoked receipt that says it and
 * is not remembered. Every resolution then asks the resolver: only its answer now is
 * compared with the log's checkpoint now.
 */
import { DEFAULT_LIMITS } from "../evaluate/limits.ts";
import { evaluateWithSourceMap, remoteResolver, revokedReceipt, type EvaluateOptions } from "../evaluate/evaluate.ts";
import type { RemoteResolver } from "../evaluate/evaluation.ts";
import { resolveContext, type EvaluationContext } from "../evaluate/context.ts";
import type { Receipt, Warning } from "../evaluate/receipt.ts";
import type { Revocation } from "../evaluate/revocation-input.ts";
import { utf8 } from "../base64url.ts";
import { quoted } from "../excerpt.ts";
import { isJsonObject, parseJson, type ShapeLimits } from "../json/strict-json.ts";
import { statusPath, umidPath, umidProblem } from "../umid-path.ts";
import { freshnessProblems } from "../validate/freshness.ts";
import { cachedGet } from "../http/conditional-get.ts";
import { globalFetch, type Fetch } from "../http/fetch-following.ts";
import { guardedCache, memoryCache, storedWithin, type HttpCache } from "../http/http-cache.ts";
import { baseUrlProblem, originProblem } from "../http/base-url.ts";
import type { Answer } from "./latest-logged.ts";
import { recallStatus, reconcileStatus, rememberStatus } from "./status-memory.ts";
import { guardedMemory, trustMemory, type TrustMemory } from "./trust-memory.ts";
import { withLegacyEntries } from "./legacy-memory.ts";
import { endpointStatus, type AnsweredStatus, type StatusAnswer } from "./status-resolution.ts";
import { resolveStatus } from "./status-sources.ts";

export interface ResolveOptions
  extends Omit<EvaluateOptions, "revocation" | "contentType" | "online" | "umid" | "fetch" | "cache" | "timeoutMs"> {
  /** The evaluation context (its `now` is also the clock of every cache decision). Default {}. */
  context?: EvaluationContext;
  /** Default: the global fetch. */
  fetch?: Fetch;
  /** Where responses are kept between calls. Default: none, every call asks. */
  cache?: HttpCache;
  /**
   * Where what this client saw, which its safety rests on, is kept between calls, apart from `cache`: the revocations
   * and suspensions, the largest checkpoint of each log, the revocations each log proved (trust-memory.ts).
   * Default: with a `cache`, a `trustMemory()` of that cache object's, kept as long as it is (so a cache kept between
   * calls remembers); without one, nothing is remembered.
   */
  memory?: TrustMemory;
  /** Milliseconds each request may take. Default 10 000. */
  timeoutMs?: number;
  /**
   * Resolve no keyRef over the network (core §1.6.4, step 4): only did:key, did:jwk and pinned `keys`. Default
   * false: a did:web keyRef's document is fetched with this `fetch`, and kept in this `cache`.
   */
  offline?: boolean;
  /**
   * The signed-note verifier key (`<origin>+<keyid>+<key>`, Ed25519; the resolver's `content/_log/verifier`) of the
   * resolver's transparency log. Each answer must then be the UMID's latest state in a checkpoint this key signed, and
   * that checkpoint must extend the largest this `memory` saw before (and, of the same size, be that one); otherwise
   * the receipt is rejected with a `um:reason:log:…` warning (rules `log/not-latest`, `log/unproven`,
   * `log/inconsistent`, `log/revocation-undone`). Default: no log is read. A key alone is the policy of that log with a
   * quorum of no witness: it proves what the log signed, not that the log shows everyone that view (a split view is
   * not detected); `logPolicy` is what does.
   */
  logKey?: string;
  /**
   * Instead of `logKey`: a log policy, in C2SP tlog-policy's syntax (`log`, `witness`, `group` and `quorum` lines).
   * The resolver's log must be one of its logs (the one whose key's name is the checkpoint's origin), and its
   * checkpoint cosigned by the policy's quorum of witnesses, each cosignature at most `maxCosignatureAge` old;
   * otherwise the receipt is rejected, with `um:reason:log:unwitnessed` (the witnesses missing named) or
   * `um:reason:log:stale-cosignature` (a quorum only with older cosignatures), besides the rules of `logKey`. Throws
   * TypeError for a policy that does not parse, that lists no log, or given with `logKey`.
   */
  logPolicy?: string;
  /** With `logPolicy`: how old a cosignature may be, in whole seconds. Default 2 592 000 (30 days). */
  maxCosignatureAge?: number;
  /**
   * The only origins (`https://status.example`) a manifest's statusRef may name: one elsewhere is not asked, nor a
   * redirect to another origin followed, and the status is "unchecked" with `um:reason:status:origin-not-allowed`
   * (rule `status/origin-not-allowed`). Default: any, with the warning `um:reason:status:foreign-origin` for one not
   * on the resolver's origin.
   */
  statusOrigins?: readonly string[];
  /**
   * Base URLs of peer resolvers also asked for the manifest's status (EXT-OPT O5), at once with the primary: the most
   * restrictive answer wins, a disagreement adds `um:reason:status:federation-inconsistent`, a peer that gives none
   * `um:reason:status:federation-peer-unavailable`. Default: none.
   */
  federate?: readonly string[];
  /**
   * Also ask the peers the resolver's discovery document (`/.well-known/um-resolvers`) names; one that cannot be read
   * adds `um:reason:status:federation-discovery-failed`. Default false.
   */
  federateDiscover?: boolean;
}

export interface Resolved {
  receipt: Receipt;
  /** Where the manifest came from, after any redirects (or the URL that answered 410). */
  manifestUrl: string;
  /** The manifest as read, when it is a JSON object; use it only as the receipt allows. */
  manifest?: Record<string, unknown>;
  /**
   * The status the receipt's `revocationStatus` records, as it was read: `value`; `since`, the status document's
   * `updatedAt` (a status list's `validFrom`); `reason`, the document's, in the publisher's words; and `url`, the
   * status document or list that answered: the manifest's statusRef, or, for a manifest that names none, the
   * resolver's own status endpoint for the UMID. After a 410 the resolver's status endpoint is asked for the
   * revocation's date and reason (best effort: "revoked" with its `url` when it says so). Absent when no status was
   * read, or when the receipt records another (the client's memory kept a revocation or a suspension this answer
   * would undo; the receipt's warnings say why).
   */
  answeredStatus?: AnsweredStatus;
  /**
   * With `logPolicy`, once the log's checkpoint verified: how many of the witnesses its quorum counts cosigned it
   * freshly (`cosigned`), of how many (`of`): "witnessed by 2 of 3"; `missing`, when too few did, those that did not.
   */
  logWitnesses?: { cosigned: number; of: number; missing?: string[] };
  cacheFailure?: string;
  memoryFailure?: string;
}

export interface NotResolvable {
  /** One line: what was asked, of which URL, and what came back. */
  reason: string;
  /** The HTTP status that ended it, when one did. */
  status?: number;
  cacheFailure?: string;
  memoryFailure?: string;
}

/**
 * `cacheFailure`, on either: the first read or write of the cache that failed, in one line
 * ("the cache was not saved: ENOSPC: …"); the resolution went on without the cache.
 * `memoryFailure`: the first read or write of the memory that failed, or the first thing
 * not remembered because the memory is full, in one line.
 */
export type Resolution = Resolved | NotResolvable;

const DEFAULT_TIMEOUT_MS = 10_000;
const MANIFEST_TYPES = "application/ld+json, application/json";

/**
 * Resolves `umid` at the resolver at `baseUrl` (https:, or http: to a loopback address)
 * and evaluates what it finds. Throws TypeError for an unusable `baseUrl` or `umid` (one no
 * resolver can be asked for, before any request) and ContextError for an unusable context;
 * every fault of the resolver, the manifest or its status is in the result.
 */
export async function resolve(baseUrl: string, umid: string, options: ResolveOptions = {}): Promise<Resolution> {
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) throw new TypeError(`baseUrl ${problem}`);
  const umidIssue = umidProblem(umid);
  if (umidIssue !== undefined) throw new TypeError(`umid ${umidIssue}`);
  const log = options.logKey === undefined && options.logPolicy === undefined ? undefined : await logProof(options);
  const statusOrigins = options.statusOrigins?.map((origin) => {
    const originIssue = originProblem(origin);
    if (originIssue !== undefined) throw new TypeError(`statusOrigins: ${originIssue}`);
    return new URL(origin).origin;
  });
  const peers = options.federate?.map((peer) => {
    const peerProblem = baseUrlProblem(peer);
    if (peerProblem !== undefined) throw new TypeError(`federate: ${peerProblem}`);
    return peer.replace(/\/+$/, "");
  });
  const now = resolveContext(options.context).now;
  // One clock for every decision: the cache's, and the evaluator's.
  const context: EvaluationContext = { ...options.context, now: now.toISOString() };
  const {
    fetch: given,
    cache: store,
    memory: givenMemory,
    timeoutMs,
    context: _,
    offline,
    logKey: __,
    logPolicy: _____,
    maxCosignatureAge: ______,
    statusOrigins: ___,
    federate: ____,
    federateDiscover,
    ...rest
  } = options;
  const transport = {
    fetch: given ?? globalFetch,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const cache = store === undefined ? undefined : guardedCache(store);
  const chosen = givenMemory ?? (store === undefined ? undefined : memoryOf(store));
  const guarded = chosen === undefined ? undefined : guardedMemory(chosen);
  // What a 0.1.0 cache remembered is read into the memory (legacy-memory.ts), through the guard: a full one is said.
  const memory = guarded !== undefined && cache !== undefined ? withLegacyEntries(guarded, cache) : guarded;
  // The client resolves keyRefs itself (resolveRemote, below, or not at all offline): the evaluator fetches nothing.
  const evaluateOptions: EvaluateOptions = { ...rest, offline: true };
  // One resolution of the keyRef, however many times the manifest is evaluated (twice, when it has a status). Without a
  // cache of the caller's, a call's own: the evaluator's process-wide store of DID documents would answer a later call
  // with a document this call never asked for, which the caller was told no call does (`cache`: "every call asks").
  const resolveRemote =
    offline === true
      ? undefined
      : remembering(remoteResolver({ ...transport, cache: cache ?? memoryCache() }, now.getTime(), baseUrl)!);
  const evaluate = async (body: string | Uint8Array, options: EvaluateOptions, refusal?: Warning) =>
    (await evaluateWithSourceMap(body, context, options, { resolveRemote, refusal })).receipt;
  let logWitnesses: Resolved["logWitnesses"];
  const done = (resolution: Resolution): Resolution => ({
    ...resolution,
    ...(logWitnesses !== undefined && "receipt" in resolution && { logWitnesses }),
    ...(cache?.failure !== undefined && { cacheFailure: cache.failure }),
    ...(guarded?.failure !== undefined && { memoryFailure: guarded.failure }),
  });
  const base = baseUrl.replace(/\/+$/, "");
  const url = base + umidPath(umid);
  const seen = await recallStatus(memory, url);

  // Asked while the resolver is: the log's word on the UMID does not depend on its answer.
  const logged = log
    ?.latestLogged(base, umid, { ...log.policy, now: now.getTime(), memory, transport })
    .then((latest) => {
      // Counted only under a policy of the caller's: a key alone has no witness to count.
      if (options.logPolicy !== undefined) logWitnesses = latest.witnessed;
      return latest;
    });
  /** Why the log refuses `answer` (a redirect when the first answer was one); undefined with no log key. */
  const logRefusal = async (answer: Answer, redirectedTo: string | undefined) => {
    if (log === undefined || logged === undefined) return undefined;
    const latest = await logged;
    if (!latest.ok) return latest.refusal;
    return log.answerRefusal(
      latest,
      redirectedTo === undefined ? answer : { kind: "redirect", location: redirectedTo },
    );
  };

  /**
   * The receipt for what was answered (undefined: a manifest with no status to check), given what was seen before,
   * which it updates.
   */
  const answered = async (
    answer: StatusAnswer | undefined,
    manifestUrl: string,
    evaluated: (revocation: Revocation | undefined) => Promise<Receipt>,
    manifest?: Record<string, unknown>,
  ) => {
    const reconciled = reconcileStatus(seen, answer);
    const { remember } = reconciled;
    // What the memory of a status seen before changed keeps the warnings of where this answer came from.
    const warnings = answer?.revocation.warnings;
    const revocation =
      reconciled.revocation === undefined || reconciled.revocation === answer?.revocation || warnings === undefined
        ? reconciled.revocation
        : { ...reconciled.revocation, warnings };
    // Revoked once, revoked for good (EXT-OPT O2.3), whatever is served now: nothing of it is evaluated.
    const receipt =
      seen?.status === "revoked" ? await revokedReceipt(umid, context, revocation) : await evaluated(revocation);
    if (remember !== undefined && receipt.revocationStatus === remember.status)
      await rememberStatus(memory, url, remember, manifestUrl, now.getTime());
    const read = answer?.answered;
    return done({
      receipt,
      manifestUrl,
      ...(manifest !== undefined && { manifest }),
      ...(read !== undefined && read.value === receipt.revocationStatus && { answeredStatus: read }),
    });
  };
  const withRevocation = (revocation: Revocation | undefined) => (revocation === undefined ? {} : { revocation });
  /**
   * No manifest came: not resolvable, unless this client saw the UMID revoked, which it stays whatever the resolver
   * answers now. The log's proof, unused, is let finish: nothing of a call runs past it.
   */
  const notResolvable = async (reason: string, manifestUrl: string, status?: number) => {
    await logged;
    return done(
      seen?.status === "revoked"
        ? {
            receipt: await revokedReceipt(
              umid,
              context,
              reconcileStatus(seen, { revocation: { status: "unchecked", message: reason } }).revocation,
            ),
            manifestUrl,
          }
        : { reason, ...(status !== undefined && { status }) },
    );
  };

  /**
   * A 410's revocation, dated and explained by the resolver's status endpoint where it lists the UMID revoked: best
   * effort, as the 410 alone says the UMID is revoked, so any other answer changes nothing.
   */
  const goneStatus = async (): Promise<StatusAnswer> => {
    const listed = await endpointStatus(
      base + statusPath(umid),
      { "@id": umid },
      { now: now.getTime(), cache, transport },
      true,
    );
    const read = listed.answered;
    if (read?.value !== "revoked") return { revocation: { status: "revoked" } };
    return {
      // The endpoint's words say since when and why: "status endpoint <url>: the manifest is revoked since …".
      revocation: {
        status: "revoked",
        message: `the resolver answers 410 Gone for ${quoted(umid)}; ${listed.revocation.message}`,
      },
      answered: read,
      ...(listed.cursor !== undefined && { cursor: listed.cursor }),
    };
  };

  const got = await cachedGet({
    url,
    accept: MANIFEST_TYPES,
    maxBytes: limits.maxManifestBytes,
    now: now.getTime(),
    cache,
    transport,
    judge: (entry) => ({
      fresh: log === undefined && storedWithin(entry, entry.maxAge, now.getTime()) && !expired(entry.body, now, limits),
      validator: entry.etag,
    }),
  });
  switch (got.kind) {
    case "insecure":
    case "unreachable":
      return notResolvable(got.reason, url);
    case "status":
      if (got.status === 410) {
        const refusal = await logRefusal({ kind: "gone" }, got.redirectedTo);
        // Not the log's word: not believed, so not remembered as a revocation.
        if (refusal !== undefined)
          return done({ receipt: await revokedReceipt(umid, context, refusal), manifestUrl: got.url });
        return answered(await goneStatus(), got.url, async (revocation) => revokedReceipt(umid, context, revocation));
      }
      return notResolvable(
        got.status === 404
          ? `${quoted(umid)} not found: ${got.url} answered 404`
          : `${got.url} answered ${got.status}, not a manifest`,
        got.url,
        got.status,
      );
    case "raw": {
      const refusal = await logRefusal({ kind: "body", body: got.bytes }, got.redirectedTo);
      return answered(undefined, got.url, (revocation) =>
        evaluate(
          got.bytes,
          { ...evaluateOptions, umid, contentType: got.contentType, ...withRevocation(revocation) },
          refusal,
        ),
      );
    }
  }
  const { entry } = got;
  const manifest = manifestOf(entry.body, limits);
  const id = manifest?.["@id"];
  // Another UMID's manifest is evaluated to a rejected receipt (core §3.3), never kept as this UMID's; nor is a
  // body that is no manifest of it at all.
  const mismatch =
    typeof id === "string" && id !== umid
      ? `the manifest at ${entry.url} has @id ${quoted(id)}, not the UMID asked for, ${quoted(umid)}`
      : undefined;
  // The exact bytes received: decoded strictly, BOM kept (decodeUtf8), the text encodes back to them.
  const body = utf8(entry.body);
  const bodyRefusal = await logRefusal({ kind: "body", body }, got.redirectedTo);
  // A body refused is never kept (conditional-get.ts).
  if (id === umid && bodyRefusal === undefined) await got.save();
  const evaluated = (revocation: Revocation | undefined, refusal = bodyRefusal) =>
    evaluate(
      entry.body,
      { ...evaluateOptions, umid, contentType: entry.contentType ?? null, ...withRevocation(revocation) },
      refusal,
    );
  // Verify first (core §3.1.2): a statusRef is the signer's only once the signature holds, and
  // asking a forged manifest's would let any manifest make this client request any URL it names.
  const unverified = await evaluated(undefined);
  const answer =
    mismatch !== undefined
      ? // No status of this UMID came: what came instead is what a UMID seen revoked says it stays revoked despite.
        { revocation: { status: "unchecked" as const, message: mismatch } }
      : manifest !== undefined && unverified.signatureCheck === "valid"
        ? await resolveStatus(
            manifest,
            { now: now.getTime(), cache, transport },
            {
              base,
              statusOrigins: statusOrigins === undefined ? undefined : new Set(statusOrigins),
              peers: peers ?? [],
              discover: federateDiscover === true,
              listKeys: pinnedDidKeys(options.keys),
            },
          )
        : undefined;
  // A status endpoint's answer is signed by nobody: the status learned must be the state the log records too. (A
  // redirected UMID's log entry says where it went, not the status of what is there.)
  const learned = answer?.revocation.status;
  const statusRefusal =
    bodyRefusal ??
    (learned === undefined || learned === "unchecked" || got.redirectedTo !== undefined
      ? undefined
      : await logRefusal({ kind: "body", body, status: learned }, undefined));
  return answered(
    answer,
    entry.url,
    // Evaluated again only to record a status, or a refusal: the first receipt stands where there is neither.
    (revocation) =>
      statusRefusal !== bodyRefusal
        ? evaluated(revocation, statusRefusal)
        : revocation === undefined || mismatch !== undefined
          ? Promise.resolve(unverified)
          : evaluated(revocation),
    manifest,
  );
}

/**
 * The log's proof under `logKey` or `logPolicy`, loaded only for a client given one (latest-logged.ts is a chunk of its
 * own, with the policy's parser and the cosignatures' check); throws TypeError for options it cannot use.
 */
async function logProof(options: ResolveOptions) {
  const { answerRefusal, latestLogged, clientLogPolicy } = await import("./latest-logged.ts");
  return { policy: clientLogPolicy(options), answerRefusal, latestLogged };
}

/** The memories of the caches given without one: each cache object's own, as long as it lives. */
const memories = new WeakMap<HttpCache, TrustMemory>();

function memoryOf(cache: HttpCache): TrustMemory {
  const memory = memories.get(cache) ?? trustMemory();
  memories.set(cache, memory);
  return memory;
}

/** `resolve`, answering again with what it answered the first time for a keyRef. */
function remembering(resolveRemote: RemoteResolver): RemoteResolver {
  const answers = new Map<string, ReturnType<RemoteResolver>>();
  return (keyRef) => {
    const answer = answers.get(keyRef) ?? resolveRemote(keyRef);
    answers.set(keyRef, answer);
    return answer;
  };
}

/** The did:key DIDs among the pinned keyRefs: the keys a status list's proof must be by; undefined when none. */
function pinnedDidKeys(keys: Readonly<Record<string, string>> | undefined): ReadonlySet<string> | undefined {
  const dids = Object.keys(keys ?? {})
    .filter((keyRef) => keyRef.startsWith("did:key:"))
    .map((keyRef) => keyRef.split("#")[0]!);
  return dids.length === 0 ? undefined : new Set(dids);
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
