/**
 * The lookup page: resolves a UMID as a relying party's client does (core/client: the
 * request, redirects, the status, the signer's DID document, the resolver's transparency
 * log, the evaluation; contract §4.3, core §3.1), cross-origin from a browser, and shows the
 * verdict in plain words, the summary card and the checklist made from the receipt, then
 * every request made and the receipt itself. Each lookup is a history entry of its own.
 */
import { type Resolution, resolve, trustMemory } from "../core/client/index.ts";
import { umidPath } from "../core/umid-path.ts";
import { type LookupFacts, checklist } from "./checklist.ts";
import {
  type Exchange,
  endedAtUnreadableRedirect,
  manifestAnswer,
  recordingFetch,
  redirectTarget,
  redirected,
} from "./exchanges.ts";
import { httpMeaning } from "./http-meaning.ts";
import { type Answer, element, resultNodes } from "./render.ts";
import { standInFor, standInWords, standingIn } from "./stand-in.ts";
import { summary } from "./summary.ts";
import { type Verdict, receiptVerdict, unresolvedVerdict } from "./verdict.ts";
import { plain, shortened } from "./words.ts";

const form = document.querySelector<HTMLFormElement>("#lookup")!;
const resolverInput = document.querySelector<HTMLInputElement>("#resolver")!;
const umidInput = document.querySelector<HTMLInputElement>("#umid")!;
const purposeInput = document.querySelector<HTMLInputElement>("#purpose")!;
const logKeyInput = document.querySelector<HTMLInputElement>("#log-key")!;
const logKeyHint = document.querySelector<HTMLElement>("#log-key-hint")!;
const logPolicyInput = document.querySelector<HTMLTextAreaElement>("#log-policy")!;
const logPolicyHint = document.querySelector<HTMLElement>("#log-policy-hint")!;
const lookUpButton = document.querySelector<HTMLButtonElement>("#look-up")!;
const cancelButton = document.querySelector<HTMLButtonElement>("#cancel")!;
const progress = document.querySelector<HTMLElement>("#progress")!;
const intro = document.querySelector<HTMLElement>("#intro")!;
const result = document.querySelector<HTMLElement>("#result")!;
const announcement = document.querySelector<HTMLElement>("#announcement")!;

const SHOWN_HEADERS = ["ETag", "Cache-Control", "Content-Type", "X-UM-Resolver-Contract"];
const TITLE = "Manifest lookup";
/**
 * How long each request may take: longer than the client's default, as a person sees the page asking and can Cancel
 * sooner, and a resolver far away on a slow link gets its answer in.
 */
const REQUEST_TIMEOUT_MS = 30_000;
/** The longest a UMID is printed but in its one full copy (words.ts). */
const MAX_UMID = 72;
/** The content of the page's meta tag `name` (filled in by whoever serves the page), "" for none. */
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
/** The publisher's log verifier key, which the build of this page set as its default. */
const publishersLogKey = meta("manifest-resolver-log-key");
/** The publisher's witness policy for its log (naming the log), which the build of this page set as its default. */
const publishersLogPolicy = policyText(meta("manifest-resolver-log-policy"));
/**
 * What this page saw that a relying party's safety rests on (a revocation, a log's checkpoint), for as long as the
 * page is open: a later lookup never reads a revoked UMID as active, nor a log rolled back as current.
 */
const memory = trustMemory();
/** The lookup under way, which a new one or Cancel stops. */
let current: AbortController | undefined;

interface Query {
  resolver: string;
  umid: string;
  purpose: string;
  logKey: string;
  /** A log policy (C2SP tlog-policy): when given, the lookup passes it, and not `logKey` (it names its log). */
  logPolicy: string;
}

/** The query the page was last opened or moved to, whose log key and policy the hints call the link's. */
let opened: Query;

showSamples();
fill(queryOf(location));
logKeyInput.addEventListener("input", describeLog);
logPolicyInput.addEventListener("input", describeLog);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  // A UMID pasted with a space or a line break around it is the same UMID.
  umidInput.value = umidInput.value.trim();
  if (!form.reportValidity()) return;
  const query = fieldsQuery();
  const search = `?${searchOf(query)}`;
  if (search !== location.search) history.pushState(null, "", search);
  void lookUp(query);
});
cancelButton.addEventListener("click", () => current?.abort());
// Back and Forward show the lookup of the entry they return to.
addEventListener("popstate", () => {
  const query = queryOf(location);
  fill(query);
  if (query.resolver !== "" && query.umid !== "") void lookUp(query);
  else {
    current?.abort();
    result.replaceChildren();
    document.title = TITLE;
  }
});
if (resolverInput.value !== "" && umidInput.value !== "") form.requestSubmit();

/** The lookup a URL asks for: its query, or its hash (which no server sees), which a shared link may use. */
function queryOf(where: Location): Query {
  const shared = new URLSearchParams(where.search !== "" ? where.search : where.hash.slice(1));
  return {
    resolver: shared.get("resolver") ?? meta("manifest-resolver"),
    umid: shared.get("umid")?.trim() ?? "",
    purpose: shared.get("purpose")?.trim() ?? "",
    logKey: shared.get("logKey")?.trim() ?? publishersLogKey,
    logPolicy: policyText(shared.get("logPolicy") ?? publishersLogPolicy),
  };
}

/** A policy as the page compares and passes it: its lines as a textarea gives them, without blank ends. */
function policyText(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

function fill(query: Query): void {
  opened = query;
  resolverInput.value = query.resolver;
  umidInput.value = query.umid;
  purposeInput.value = query.purpose;
  logKeyInput.value = query.logKey;
  logPolicyInput.value = query.logPolicy;
  describeLog();
}

function fieldsQuery(): Query {
  return {
    resolver: resolverInput.value.trim().replace(/\/+$/, ""),
    umid: umidInput.value,
    purpose: purposeInput.value.trim(),
    logKey: logKeyInput.value.trim(),
    logPolicy: policyText(logPolicyInput.value),
  };
}

/** The query of a lookup's URL: the log key and policy only when not the page's defaults, so a link stays short. */
function searchOf(query: Query): URLSearchParams {
  return new URLSearchParams({
    resolver: query.resolver,
    umid: query.umid,
    ...(query.purpose !== "" && { purpose: query.purpose }),
    ...(query.logKey !== publishersLogKey && { logKey: query.logKey }),
    ...(query.logPolicy !== publishersLogPolicy && { logPolicy: query.logPolicy }),
  });
}

/**
 * Says whose log key and policy the fields hold, so a third party hosting the page knows which it trusts; the key, when
 * a policy is given, is not used (the policy names the log).
 */
function describeLog(): void {
  const key = logKeyInput.value.trim();
  const policy = policyText(logPolicyInput.value);
  const name = key.split("+")[0] ?? "";
  logKeyHint.textContent =
    policy !== ""
      ? "Not used: the log policy below names the log and its key."
      : key === ""
        ? "None: the page does not check the resolver's transparency log."
        : key === publishersLogKey
          ? `The publisher's key for its log ${name}, set by whoever built this page. Replace it with a key you pinned.`
          : key === opened.logKey
            ? `A key for the log ${name}, from the link you opened: check that it is one you trust.`
            : `Your key for the log ${name}.`;
  logPolicyHint.textContent =
    policy === ""
      ? "None: no witness is asked whether the log you are shown is the one everyone else is shown."
      : policy === publishersLogPolicy
        ? "The publisher's policy for its log: the log's key, and the witnesses that must have seen the log. Set by " +
          "whoever built this page: replace it with a policy you chose."
        : policy === opened.logPolicy
          ? "A policy from the link you opened: check that its log and its witnesses are ones you trust."
          : "Your policy: the log's key, and the witnesses that must have seen the log.";
}

/** The sample UMIDs `serve` and `dev` list, each a link to its lookup. */
function showSamples(): void {
  const samples = parsedSamples(meta("manifest-resolver-samples"));
  if (samples.length === 0) return;
  const list = document.createElement("ul");
  for (const sample of samples) {
    const link = element("a", sample.label, "sample");
    link.setAttribute("href", `?${new URLSearchParams({ resolver: meta("manifest-resolver"), umid: sample.umid })}`);
    const item = document.createElement("li");
    item.append(link, " ", element("code", shortened(sample.umid, 60)));
    list.append(item);
  }
  intro.append(element("p", "This server's sample manifests, one of each kind:"), list);
}

function parsedSamples(json: string): { umid: string; label: string }[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter(
          (s): s is { umid: string; label: string } => typeof s?.umid === "string" && typeof s?.label === "string",
        )
      : [];
  } catch {
    return [];
  }
}

async function lookUp(query: Query): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const { resolver, umid, purpose, logKey, logPolicy } = query;
  asking(true, `Looking up ${shortened(umid, 60)} at ${resolver}…`);
  result.replaceChildren();
  const log: Exchange[] = [];
  const standIn = standInFor(resolver, meta);
  let resolution: Resolution;
  try {
    const recording = recordingFetch(log, controller.signal);
    resolution = await resolve(standIn?.for ?? resolver, umid, {
      fetch: standIn === undefined ? recording : standingIn(recording, standIn),
      context: purpose === "" ? {} : { intendedPurpose: purpose },
      memory,
      timeoutMs: REQUEST_TIMEOUT_MS,
      // A policy names its log: with one, the key is not passed (the client takes one or the other).
      ...(logPolicy !== "" ? { logPolicy } : logKey !== "" && { logKey }),
    });
  } catch (error) {
    // Only an unusable resolver URL, UMID, log key, log policy or purpose throws.
    resolution = { reason: fieldWords((error as Error).message) };
  }
  const requestUrl = resolver + umidPath(umid);
  const resolved = "receipt" in resolution ? resolution : undefined;
  const status = resolved?.answeredStatus;
  const facts: LookupFacts = {
    receipt: resolved?.receipt,
    manifest: resolved?.manifest,
    logProof: logPolicy !== "" ? "policy" : logKey !== "" ? "key" : "none",
    logWitnesses: resolved?.logWitnesses,
    status,
    noReceipt: "no manifest came",
  };
  const checks = checklist(facts);
  const notes = standIn === undefined ? [] : [standInWords(standIn)];
  const verdict =
    resolved !== undefined
      ? receiptVerdict(resolved.receipt, checks, notes)
      : noReceiptVerdict(resolution as { reason: string; status?: number }, log, controller.signal.aborted, umid);
  const answer = await answerOf(log, umid);
  // A lookup begun since (while the client asked, or while the answer's body was read) is the one to show.
  if (controller !== current) return;
  current = undefined;
  result.replaceChildren(
    ...resultNodes({
      verdict,
      checks,
      summary: summary(umid, resolved?.receipt, resolved?.manifest, status),
      umid,
      requestUrl,
      ...(redirected(log) && { redirect: { target: redirectTarget(log) } }),
      exchanges: log,
      ...(answer !== undefined && { answer }),
      ...(resolved !== undefined && { receipt: resolved.receipt }),
      shareUrl: location.href,
    }),
  );
  document.title = `${verdict.headline} · ${shortened(umid, 40)} · ${TITLE}`;
  asking(false, `${verdict.headline}: ${verdict.reasons[0]}`);
}

/** The page while a lookup is under way, or done: `said` is what the live region announces. */
function asking(underWay: boolean, said: string): void {
  lookUpButton.disabled = underWay;
  cancelButton.hidden = !underWay;
  progress.hidden = !underWay;
  progress.textContent = underWay ? said : "";
  announcement.textContent = said;
}

function noReceiptVerdict(
  resolution: { reason: string; status?: number },
  log: Exchange[],
  cancelled: boolean,
  umid: string,
): Verdict {
  if (cancelled) return unresolvedVerdict("you cancelled the lookup before the resolver answered", "cancelled");
  if (endedAtUnreadableRedirect(log))
    return unresolvedVerdict(
      "the resolver sends this UMID to another site, which does not let this page read it: follow the link to see it",
      "unresolved",
      true,
    );
  if (resolution.status === 404) {
    // A phone's keyboard may have capitalised the scheme: UMIDs are case-sensitive.
    const hint = /^[A-Z]/.test(umid) ? "; UMIDs are case-sensitive: check its first letter" : "";
    return unresolvedVerdict(`this resolver has no manifest for this UMID${hint}`, "not-found");
  }
  return unresolvedVerdict(plain(resolution.reason), "unresolved");
}

/** The client's messages about its arguments, in the words of the page's fields. */
function fieldWords(message: string): string {
  return (
    message
      .replace(/^baseUrl /, "the Resolver address ")
      .replace(/^umid /, "the UMID ")
      .replace(/^logKey /, "the Log key ")
      // "logPolicy, line 3, column 9: …": the line and column of the field's text.
      .replace(/^logPolicy\b/, "the Log policy")
  );
}

/**
 * The resolver's answer to the manifest's request, for the page's "The resolver's answer", with `umid` shortened in its
 * body as everywhere else on the page (an error's message quotes it).
 */
async function answerOf(log: Exchange[], umid: string): Promise<Answer | undefined> {
  const response = manifestAnswer(log);
  if (response === undefined) return undefined;
  const headers = SHOWN_HEADERS.flatMap((name): [string, string][] => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, value]];
  });
  const meaning = httpMeaning(response.status);
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    body: pretty(await response.text().catch(() => "")).replaceAll(umid, shortened(umid, MAX_UMID)),
    ...(meaning !== undefined && { meaning }),
  };
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
