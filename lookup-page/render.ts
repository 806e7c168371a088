/**
 * The result of one lookup as DOM: the verdict (a heading, with its reasons), the summary
 * card, the checklist, then what a specialist wants behind toggles (reason codes, the full
 * UMID, every request made, the resolver's answer, the receipt). Text only ever enters the
 * page as text nodes: a UMID or an answer with markup in it stays text.
 */
import type { Receipt } from "../core/evaluate/index.ts";
import type { Check } from "./checklist.ts";
import { type Exchange, exchangeWords } from "./exchanges.ts";
import type { SummaryRow } from "./summary.ts";
import type { Verdict } from "./verdict.ts";
import { shortened } from "./words.ts";

export interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  /** The status in plain words, for the resolver's error answers. */
  meaning?: string;
}

export interface Shown {
  verdict: Verdict;
  checks: Check[];
  summary: SummaryRow[];
  umid: string;
  requestUrl: string;
  /** Whether the resolver redirected the UMID, and where to, when the page could tell. */
  redirect?: { target?: string | undefined };
  exchanges: Exchange[];
  answer?: Answer;
  receipt?: Receipt;
  /** The link to this lookup. */
  shareUrl: string;
}

/** The verdict as text, for the copy button: what a person pastes into a ticket or a message. */
function verdictText(shown: Shown): string {
  return [
    `${shown.verdict.headline}: ${shown.umid}`,
    ...shown.verdict.reasons.map((r) => `- ${r}`),
    "",
    ...shown.checks.map((c) => `${c.label}: ${c.finding}. ${c.sentence}`),
    "",
    shown.shareUrl,
  ].join("\n");
}

export function resultNodes(shown: Shown): Node[] {
  const { verdict } = shown;
  const headline = element("h2", verdict.headline, `headline ${verdict.tone}`);
  headline.id = "verdict";
  headline.dataset.outcome = verdict.outcome;
  headline.dataset.tone = verdict.tone;
  const card = element("div", "", `verdict ${verdict.tone}`);
  card.append(headline);
  if (shown.redirect !== undefined) card.append(redirectLine(shown.redirect.target, shown.requestUrl));
  const reasons = list("ul", verdict.reasons);
  reasons.id = "reasons";
  card.append(reasons);
  const receiptJson = shown.receipt === undefined ? undefined : JSON.stringify(shown.receipt, null, 2);
  return [
    card,
    copyButtons(shown, receiptJson),
    summaryList(shown.summary),
    element("h3", "What was checked"),
    checklist(shown.checks),
    ...(verdict.codes.length > 0 ? [toggle("reason-codes", "Reason codes", list("ul", verdict.codes, "code"))] : []),
    toggle("umid-full", "The full UMID", element("code", shown.umid)),
    element("h3", "What happened"),
    requestLine(shown.requestUrl, shown.shareUrl),
    exchangeList(shown.exchanges),
    ...(shown.answer === undefined ? [] : [answerBlock(shown.answer)]),
    ...(receiptJson === undefined ? [] : [receiptBlock(receiptJson)]),
  ];
}

/** The redirect's target as a link; one the page cannot read is reached by the request itself, which a tab follows. */
function redirectLine(target: string | undefined, requestUrl: string): HTMLElement {
  const line = element("p", target === undefined ? "Follow it: " : "Moved to ", "redirect");
  const link = element("a", target ?? "where the resolver sends it");
  link.id = "redirect-target";
  link.setAttribute("href", target ?? requestUrl);
  link.setAttribute("rel", "noreferrer");
  line.append(link);
  return line;
}

function copyButtons(shown: Shown, receiptJson: string | undefined): HTMLElement {
  const status = element("span", "", "copy-status");
  status.setAttribute("role", "status");
  const row = element("p", "", "actions");
  row.append(
    copyButton("copy-verdict", "Copy verdict", verdictText(shown), status),
    ...(receiptJson === undefined ? [] : [copyButton("copy-receipt", "Copy receipt (JSON)", receiptJson, status)]),
    copyButton("copy-request", "Copy request URL", shown.requestUrl, status),
    status,
  );
  return row;
}

/** A button that copies `text`, says so on itself, in `status` (for screen readers) and in data-copy-state. */
function copyButton(id: string, label: string, text: string, status: HTMLElement): HTMLElement {
  const button = element("button", label);
  button.id = id;
  button.setAttribute("type", "button");
  button.addEventListener("click", () => {
    navigator.clipboard.writeText(text).then(
      () => {
        button.dataset.copyState = "copied";
        status.textContent = `${label}: copied`;
      },
      () => {
        button.dataset.copyState = "failed";
        status.textContent = `${label}: not copied; select the text and copy it instead`;
      },
    );
  });
  return button;
}

function summaryList(rows: SummaryRow[]): HTMLElement {
  const dl = element("dl", "", "summary");
  dl.id = "summary";
  for (const row of rows) {
    const value = element("dd", row.value);
    value.dataset.field = row.field;
    dl.append(element("dt", row.label), value);
  }
  return dl;
}

function checklist(checks: Check[]): HTMLElement {
  const ol = element("ol", "", "checklist");
  ol.id = "checklist";
  for (const check of checks) {
    const item = element("li", "");
    item.dataset.check = check.id;
    item.dataset.result = check.result;
    item.append(element("strong", `${check.label}: ${check.finding}`), ` — ${check.sentence}.`);
    ol.append(item);
  }
  return ol;
}

function requestLine(url: string, shareUrl: string): HTMLElement {
  const paragraph = element("p", "Request: GET ");
  const link = element("a", "Link to this lookup");
  link.setAttribute("href", shareUrl);
  paragraph.append(element("code", shortened(url, 120)), ". ", link);
  return paragraph;
}

function exchangeList(exchanges: Exchange[]): HTMLElement {
  const ol = list("ol", exchangeWords(exchanges));
  ol.id = "exchanges";
  exchanges.forEach((exchange, i) => {
    (ol.children[i] as HTMLElement).dataset.kind = exchange.kind;
  });
  return ol;
}

function answerBlock(answer: Answer): HTMLElement {
  const dl = document.createElement("dl");
  for (const [name, value] of answer.headers) dl.append(element("dt", name), element("dd", value));
  const parts: Node[] = [dl];
  if (answer.meaning !== undefined) parts.push(element("p", answer.meaning));
  parts.push(scrollable("The resolver's answer", answer.body));
  return toggle("answer", `The resolver's answer: ${answer.status} ${answer.statusText}`.trim(), ...parts);
}

function receiptBlock(json: string): HTMLElement {
  const pre = scrollable("Receipt", json);
  pre.id = "receipt";
  return toggle("receipt-block", "The receipt the verdict was made from", pre);
}

/** A collapsed block. */
function toggle(id: string, title: string, ...content: Node[]): HTMLElement {
  const details = document.createElement("details");
  details.id = id;
  details.append(element("summary", title), ...content);
  return details;
}

/** A region that scrolls on its own, so keyboard users can reach and scroll it (WCAG 2.1.1). */
function scrollable(label: string, text: string): HTMLElement {
  const pre = element("pre", text);
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-label", label);
  return pre;
}

function list(tag: "ul" | "ol", items: string[], itemTag = ""): HTMLElement {
  const node = document.createElement(tag);
  for (const item of items) {
    const li = document.createElement("li");
    if (itemTag === "") li.textContent = item;
    else li.append(element(itemTag, item));
    node.append(li);
  }
  return node;
}

export function element(tag: string, text: string, className = ""): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className !== "") node.className = className;
  return node;
}
