/**
 * The lookup page: resolves a UMID as a relying party's client does (core/client: the
 * request, redirects, the statusRef, the evaluation, contract §4.3 and core §3.1),
 * cross-origin from a browser, and shows first the verdict in plain words (with the
 * resolver's own status listing when the manifest names no statusRef), then what happened
 * on the wire, the answer's status, headers and body, and the receipt.
 */
import { resolve, type Resolution } from "../core/client/index.ts";
import { umidPath } from "../core/umid-path.ts";
import {
  endedAtUnreadableRedirect,
  exchangeWords,
  manifestAnswer,
  recordingFetch,
  type Exchange,
} from "./exchanges.ts";
import { httpMeaning } from "./http-meaning.ts";
import { listedStatus } from "./listed-status.ts";
import { standInFor, standInWords, standingIn } from "./stand-in.ts";
import { receiptVerdict, unresolvedVerdict, type Verdict } from "./verdict.ts";

const form = document.querySelector<HTMLFormElement>("#lookup")!;
const resolverInput = document.querySelector<HTMLInputElement>("#resolver")!;
const umidInput = document.querySelector<HTMLInputElement>("#umid")!;
const purposeInput = document.querySelector<HTMLInputElement>("#purpose")!;
const result = document.querySelector<HTMLElement>("#result")!;
const announcement = document.querySelector<HTMLElement>("#announcement")!;
/** The latest lookup: an earlier one that answers later must not overwrite it. */
let latest = 0;

const SHOWN_HEADERS = ["ETag", "Cache-Control", "Content-Type", "X-UM-Resolver-Contract"];
// A shared link carries the resolver and the UMID in its query, or in its hash (which no server sees).
const shared = new URLSearchParams(location.search !== "" ? location.search : location.hash.slice(1));
/** The content of the page's meta tag `name` (filled in by whoever serves the page), "" for none. */
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
resolverInput.value = shared.get("resolver") ?? meta("manifest-resolver");
umidInput.value = shared.get("umid")?.trim() ?? "";
purposeInput.value = shared.get("purpose")?.trim() ?? "";

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const resolver = resolverInput.value.trim().replace(/\/+$/, "");
  // A UMID pasted with a space or a line break around it is the same UMID.
  const umid = umidInput.value.trim();
  umidInput.value = umid;
  const purpose = purposeInput.value.trim();
  if (!form.reportValidity()) return;
  history.replaceState(null, "", `?${new URLSearchParams({ resolver, umid, ...(purpose !== "" && { purpose }) })}`);
  void lookUp(resolver, umid, purpose);
});
if (resolverInput.value !== "" && umidInput.value !== "") form.requestSubmit();

/** `purpose`: the intended use, which each consent's purpose is compared with (core §3.1.4); "" when none is given. */
async function lookUp(resolver: string, umid: string, purpose: string): Promise<void> {
  const lookup = ++latest;
  const request = requestLine(resolver + umidPath(umid));
  result.replaceChildren(request, line("muted", "Asking…"));
  announcement.textContent = "";
  const log: Exchange[] = [];
  let resolution: Resolution;
  const standIn = standInFor(resolver, meta);
  try {
    const context = purpose === "" ? {} : { intendedPurpose: purpose };
    const recording = recordingFetch(log);
    const fetch = standIn === undefined ? recording : standingIn(recording, standIn);
    resolution = await resolve(standIn?.for ?? resolver, umid, { fetch, context });
  } catch (error) {
    // Only an unusable resolver URL (or UMID, or context) throws.
    resolution = { reason: (error as Error).message };
  }
  const verdict =
    "receipt" in resolution
      ? receiptVerdict(resolution.receipt, await listedStatus(resolver, umid, resolution))
      : unresolvedVerdict(unresolvedReason(resolution.reason, log));
  if (standIn !== undefined) verdict.reasons.push(standInWords(standIn));
  const parts: Node[] = [verdictBlock(verdict), request, shareLink()];
  if (log.length > 0) parts.push(heading("What happened"), list(exchangeWords(log)));
  const answer = manifestAnswer(log);
  if (answer !== undefined) {
    parts.push(heading(`The answer: ${answer.status} ${answer.statusText}`), headerList(answer.headers));
    const meaning = httpMeaning(answer.status);
    if (meaning !== undefined) parts.push(line("", meaning));
    parts.push(scrollable(answer.ok ? "Manifest" : "Response body", pretty(await answer.text())));
  }
  if ("receipt" in resolution)
    parts.push(heading("The receipt"), scrollable("Receipt", JSON.stringify(resolution.receipt, null, 2)));
  if (lookup !== latest) return;
  result.replaceChildren(...parts);
  announcement.textContent = `${verdict.headline}: ${verdict.reasons[0]}`;
}

/** Why nothing came: the client's reason, unless the resolver did answer, with a redirect this page cannot follow. */
function unresolvedReason(reason: string, log: Exchange[]): string {
  return endedAtUnreadableRedirect(log)
    ? "the resolver redirected this UMID to another site, which this page cannot read; " +
        "open the request URL in the browser"
    : reason;
}

function verdictBlock(verdict: Verdict): HTMLElement {
  const block = element("div", "", `verdict ${verdict.tone}`);
  block.append(element("p", verdict.headline, "headline"), list(verdict.reasons));
  return block;
}

function requestLine(url: string): HTMLElement {
  const copy = element("button", "Copy");
  copy.setAttribute("type", "button");
  copy.setAttribute("aria-label", "Copy the request URL");
  copy.addEventListener("click", () => {
    navigator.clipboard.writeText(url).then(
      () => (copy.textContent = "Copied"),
      () => (copy.textContent = "Not copied: select the URL"),
    );
  });
  const paragraph = element("p", "Request: GET ");
  paragraph.append(element("code", url), " ", copy);
  return paragraph;
}

function shareLink(): HTMLElement {
  const link = element("a", "Link to this lookup");
  link.setAttribute("href", location.href);
  const paragraph = element("p", "");
  paragraph.append(link);
  return paragraph;
}

/** A region that scrolls on its own, so keyboard users can reach and scroll it (WCAG 2.1.1). */
function scrollable(label: string, text: string): HTMLElement {
  const pre = element("pre", text);
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-label", label);
  return pre;
}

function headerList(headers: Headers): HTMLElement {
  const dl = document.createElement("dl");
  for (const name of SHOWN_HEADERS) {
    const value = headers.get(name);
    if (value !== null) dl.append(element("dt", name), element("dd", value));
  }
  return dl;
}

function list(items: string[]): HTMLElement {
  const ul = document.createElement("ul");
  for (const item of items) ul.append(element("li", item));
  return ul;
}

function heading(text: string): HTMLElement {
  return element("h2", text);
}

function line(className: string, text: string): HTMLElement {
  return element("p", text, className);
}

function element(tag: string, text: string, className = ""): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className !== "") node.className = className;
  return node;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
