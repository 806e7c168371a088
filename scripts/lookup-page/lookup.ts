/**
 * The lookup page: asks a resolver for a UMID, cross-origin, and shows what came back:
 * status, the exposed headers, the manifest, its expiry, and whether its signature
 * verifies (Profile A, checked here with WebCrypto against the embedded key).
 */
import { decodeBase64url } from "../../core/base64url.ts";
import { umidPath } from "../../edge/umid-path.ts";
import { ed25519Weakness } from "../../core/crypto/ed25519-strict.ts";
import { PROFILE_A, signingInputText } from "../../core/crypto/signing-input.ts";

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
  const signature = manifest.signature;
  if (!isObject(signature) || signature.algorithm !== PROFILE_A.algorithm || signature.canonicalization !== PROFILE_A.canonicalization) {
    return ["bad", "signature not checked: not Profile A (Ed25519 over JCS)"];
  }
  const keyRef = JSON.stringify(signature.keyRef);
  if (typeof signature.publicKeySpkiB64 !== "string") return ["muted", `signature not checked here: no embedded key; verify it with the key of ${keyRef}`];
  const value = typeof signature.value === "string" ? decodeBase64url(signature.value) : undefined;
  if (value === undefined || value.length !== 64) return ["bad", "signature does not verify: its value is not a 64-byte base64url signature"];
  try {
    const spki = Uint8Array.from(atob(signature.publicKeySpkiB64), (c) => c.charCodeAt(0));
    // The same strict refusals as the build: browsers' verifiers accept some forgeries.
    const weakness = ed25519Weakness(spki.subarray(-32), value);
    if (weakness === "weak-key") return ["bad", "signature refused: the embedded key is a small-order or non-canonical Ed25519 key, for which anything verifies"];
    if (weakness === "invalid") return ["bad", "signature refused: it is not strictly encoded (small-order R, or S not below the group order)"];
    const key = await crypto.subtle.importKey("spki", spki, { name: "Ed25519" }, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "Ed25519" }, key, value, new TextEncoder().encode(signingInputText(manifest)));
    return ok
      ? ["ok", `signature verifies with the key embedded in the manifest (keyRef ${keyRef}); that this key is ${keyRef}'s is not checked here`]
      : ["bad", "signature does not verify: the manifest changed after signing, or another key signed it"];
  } catch (error) {
    return ["bad", `signature not checked: ${(error as Error).message}`];
  }
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
