/**
 * The lookup page: asks a resolver for a UMID, cross-origin, and shows what came back:
 * status, the exposed headers, the manifest, its expiry, and whether its signature
 * verifies (Profile A, checked here with WebCrypto against the embedded key).
 */
import { isProfileA, prepareProfileA } from "../../core/crypto/profile-a.ts";
import { verifyEd25519 } from "../../core/crypto/webcrypto-ed25519.ts";
import { umidPath } from "../../core/umid-path.ts";

const form = document.querySelector<HTMLFormElement>("#lookup")!;
const resolverInput = document.querySelector<HTMLInputElement>("#resolver")!;
const umidInput = document.querySelector<HTMLInputElement>("#umid")!;
const result = document.querySelector<HTMLElement>("#result")!;

const SHOWN_HEADERS = ["ETag", "Cache-Control", "Content-Type", "X-UM-Resolver-Contract"];
const query = new URLSearchParams(location.search);
resolverInput.value = query.get("resolver") ?? document.querySelector<HTMLMetaElement>('meta[name="manifest-resolver"]')?.content ?? "";
umidInput.value = query.get("umid") ?? "";

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const resolver = resolverInput.value.trim().replace(/\/+$/, "");
  const umid = umidInput.value;
  history.replaceState(null, "", `?${new URLSearchParams({ resolver, umid })}`);
  void lookUp(resolver, umid);
});
if (resolverInput.value !== "" && umidInput.value !== "") form.requestSubmit();

async function lookUp(resolver: string, umid: string): Promise<void> {
  const url = resolver + umidPath(umid);
  result.replaceChildren(line("muted", `GET ${url} …`));
  let response: Response;
  try {
    response = await fetch(url, { cache: "no-store" });
  } catch (error) {
    result.replaceChildren(line("status bad", "No answer"), line("", `${(error as Error).message}: is the resolver URL right, and does it allow cross-origin requests?`));
    return;
  }
  const text = await response.text();
  const body = parseJson(text);
  const parts: Node[] = [line(`status ${response.ok ? "ok" : "bad"}`, `${response.status} ${response.statusText}`)];
  if (response.redirected) parts.push(line("muted", `redirected to ${response.url}`));
  parts.push(headerList(response.headers));
  if (response.ok && isObject(body)) parts.push(facts([expiry(body), await signatureCheck(body)]));
  parts.push(element("pre", body === undefined ? text : JSON.stringify(body, null, 2)));
  result.replaceChildren(...parts);
}

function expiry(manifest: Record<string, unknown>): [string, string] {
  const expires = typeof manifest.expiresAt === "string" ? Date.parse(manifest.expiresAt) : NaN;
  if (Number.isNaN(expires)) return ["bad", "no valid expiresAt: do not use it"];
  const days = Math.floor((expires - Date.now()) / 86_400_000);
  return expires <= Date.now()
    ? ["bad", `expired on ${manifest.expiresAt}: consumers must reject it`]
    : ["ok", `valid until ${manifest.expiresAt} (${days} day${days === 1 ? "" : "s"} left)`];
}

async function signatureCheck(manifest: Record<string, unknown>): Promise<[string, string]> {
  if (!isProfileA(manifest.signature)) return ["bad", "signature not checked: not Profile A (Ed25519 over JCS)"];
  const keyRef = JSON.stringify((manifest.signature as Record<string, unknown>).keyRef);
  // The build's rules, verbatim: the same refusals, strict encodings first.
  const { problems, pending } = prepareProfileA(manifest, undefined);
  if (pending === undefined) {
    if (problems[0]?.rule === "signature/unverifiable") return ["muted", `signature not checked here: no embedded key; verify it with the key of ${keyRef}`];
    return ["bad", `signature does not verify: ${problems.map((p) => `${p.pointer} ${p.message}`).join("; ")}`];
  }
  const verdict = await verifyEd25519(pending.publicKey, pending.message, pending.signature);
  if (verdict === "weak-key") return ["bad", "signature refused: the embedded key is a small-order or non-canonical Ed25519 key, for which anything verifies"];
  return verdict === "valid"
    ? ["ok", `signature verifies with the key embedded in the manifest (keyRef ${keyRef}); that this key is ${keyRef}'s is not checked here`]
    : ["bad", "signature does not verify: the manifest changed after signing, another key signed it, or it is not strictly encoded"];
}

function headerList(headers: Headers): HTMLElement {
  const list = document.createElement("dl");
  for (const name of SHOWN_HEADERS) {
    const value = headers.get(name);
    if (value !== null) list.append(element("dt", name), element("dd", value));
  }
  return list;
}

function facts(items: [string, string][]): HTMLElement {
  const list = document.createElement("ul");
  list.className = "facts";
  for (const [kind, text] of items) list.append(element("li", text, kind));
  return list;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
