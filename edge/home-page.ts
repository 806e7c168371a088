/**
 * The resolver's own address, `/`. To the contract it is a path with no UMID: 400 "missing UMID" (spec 4.3), which
 * every program that asks keeps getting, byte for byte. A browser that opens it (its `Accept` prefers HTML) gets instead
 * a short page saying what answers here, how to ask it, and where people look UMIDs up: the lookup page, when the host
 * knows its address (`serve --ui-port` and `dev` do); else where the build writes it. Both answers vary by `Accept`,
 * and say so, for caches.
 */
import { preferredMediaType } from "../core/media-type.ts";
import { B64U_PREFIX, DESCRIPTOR_PATH } from "../core/umid-path.ts";
import { type Answer, htmlPage, uncachedJson } from "./responses.ts";

/** What the page links to, when its host knows it. */
export interface HomePageOptions {
  /** The lookup page's absolute URL. */
  lookupPage?: string | undefined;
}

const VARY_ACCEPT: [string, string] = ["Vary", "Accept"];

/** JSON first: a client that takes anything (`*\/*`, or no `Accept` at all) gets the contract's answer. */
const OFFERED = ["application/json", "text/html"] as const;

export function homePage(accept: string | null, { lookupPage }: HomePageOptions): Answer {
  if (preferredMediaType(accept, OFFERED) !== "text/html") {
    const missing = uncachedJson(400, { error: "bad_request", message: "missing UMID" });
    return { ...missing, headers: [...missing.headers, VARY_ACCEPT] };
  }
  const page = htmlPage(homePageHtml(lookupPage));
  return { ...page, headers: [...page.headers, VARY_ACCEPT] };
}

function homePageHtml(lookupPage: string | undefined): string {
  const lookUp =
    lookupPage === undefined
      ? "To look one up in a browser, use this resolver’s lookup page: a site of its own, on another address, " +
        "which its publisher’s build writes to <code>dist-lookup/</code>."
      : `To look one up in a browser, and see whether to trust it, open <a href="${escapeHtml(lookupPage)}">the ` +
        "lookup page</a>.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>Universal Manifest resolver</title>
</head>
<body>
<main>
<h1>Universal Manifest resolver</h1>
<p>This address serves signed Universal Manifest documents to programs, each by its UMID.</p>
<p>To ask for one: <code>GET /{UMID}</code>, the UMID percent-encoded as one path segment, or
<code>GET /${B64U_PREFIX}{base64url}</code>, the UMID’s UTF-8 bytes in unpadded base64url (for a UMID with a
<code>/</code>).
The answer is the manifest as JSON-LD, or a JSON error. What else it serves:
<a href="${DESCRIPTOR_PATH}">its descriptor</a>.</p>
<p>${lookUp}</p>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
