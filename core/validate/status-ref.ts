/**
 * `signature.statusRef` (core §1.6.2, EXT-OPT O2.1) is outside the signing input: anyone
 * who handles a manifest can change it without breaking the signature, and relying
 * parties will ask it whether the manifest was revoked. So a publisher's build holds it
 * to three rules: it is a URL a status answer can be trusted over (https, or loopback
 * http); it is not on a local or private address unless the configured resolver is
 * (core/secure-url.ts: a client resolving at a remote resolver does not ask it); and if it points at this publisher's own resolver, it is this UMID's own status
 * URL there (a manifest must not borrow another UMID's "active"), or an entry of one of its status lists, which the
 * content's allocation must give this UMID (checked across files: scripts/check/status-refs.ts). And it names a URL
 * a client can fetch (statusRefUrlProblem).
 */
import { excerpt, quoted } from "../excerpt.ts";
import { baseUrlProblem } from "../http/base-url.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { isLoopbackHost, isTrustworthyUrl, pointsInward } from "../secure-url.ts";
import { LIST_ID, listEntryRef } from "../status-list/list-entry-ref.ts";
import { parseUmidPath, STATUS_LIST_PREFIX, statusPath, STATUS_PREFIX } from "../umid-path.ts";
import type { Problem } from "./problem.ts";

const POINTER = "/signature/statusRef";

/** `resolverUrl`: the publisher's resolver (its base URL), or "" when none is configured. */
export function statusRefProblems(manifest: Record<string, unknown>, resolverUrl: string): Problem[] {
  const statusRef = isJsonObject(manifest.signature) ? manifest.signature.statusRef : undefined;
  if (typeof statusRef !== "string") return [];
  if (!isTrustworthyUrl(statusRef)) {
    return [
      {
        pointer: POINTER,
        rule: "signature/status-ref-insecure",
        message:
          `must be an https: URL (or http: to a loopback host), not ${quoted(statusRef)}: ` +
          `a status document carries no signature, only its transport protects it (EXT-OPT ` +
          `O2.1)`,
      },
    ];
  }
  const unusable = statusRefUrlProblem(statusRef);
  if (unusable !== undefined) return [{ pointer: POINTER, rule: "signature/status-ref-unusable", message: unusable }];
  // Judged only against a configured resolver: a statusRef on this machine is what a trial on it makes.
  if (resolverUrl !== "" && pointsInward(statusRef, resolverUrl))
    return [
      {
        pointer: POINTER,
        rule: "signature/status-ref-local",
        message:
          `is on a local or private address (${quoted(statusRef)}), and the resolver (${resolverUrl}) is not: ` +
          "relying parties resolving there do not ask it (core/secure-url.ts)",
      },
    ];
  const id = manifest["@id"];
  if (resolverUrl === "" || typeof id !== "string") return [];
  const ref = new URL(statusRef);
  const base = new URL(resolverUrl.replace(/\/*$/, "/"));
  if (!sameServer(ref, base) || !ref.pathname.startsWith(base.pathname)) return [];
  const own = statusRefFor(resolverUrl, id);
  const path = `/${ref.pathname.slice(base.pathname.length)}`;
  const named =
    path.startsWith(`${STATUS_PREFIX}/`) && ref.search === "" && ref.hash === ""
      ? parseUmidPath(path.slice(STATUS_PREFIX.length))
      : undefined;
  if (named !== undefined && "umid" in named && named.umid === id) return [];
  // An entry of one of its status lists: whose entry it is, the allocation says (scripts/check/status-refs.ts).
  if (isListEntry(path, statusRef, ref)) return [];
  return [
    {
      pointer: POINTER,
      rule: "signature/status-ref-mismatch",
      message:
        `points at this publisher's resolver (${resolverUrl}) but not at this manifest's ` +
        `own status URL, ${excerpt(own)}`,
    },
  ];
}

/**
 * Why no client can fetch what `statusRef` (a trustworthy URL) names, if it cannot: an entry of a list, any
 * resolver's, is read from the URL before `#index`, held to the rule of a resolver's base URL (the list's URL is one
 * and a path; `sign` holds its status base to it); a status endpoint's URL must carry no credentials, which fetch
 * refuses.
 */
function statusRefUrlProblem(statusRef: string): string | undefined {
  const entry = listEntryRef(statusRef);
  if (entry !== undefined) {
    const problem = baseUrlProblem(entry.listUrl);
    return problem === undefined ? undefined : `names an entry of a status list no client can fetch: ${problem}`;
  }
  const { username, password } = new URL(statusRef);
  return username === "" && password === ""
    ? undefined
    : `must not carry credentials (user:password@): fetch refuses such a URL, so no client can ask it`;
}

/** Whether `statusRef` (at `path` under the resolver) names an entry of a status list the resolver serves. */
function isListEntry(path: string, statusRef: string, ref: URL): boolean {
  const prefix = `${STATUS_LIST_PREFIX}/`;
  return (
    path.startsWith(prefix) &&
    LIST_ID.test(path.slice(prefix.length)) &&
    ref.search === "" &&
    listEntryRef(statusRef) !== undefined
  );
}

/**
 * Whether two URLs name one server however it is spelt: a host's trailing dot (the same
 * name in DNS) and the names of this machine (`localhost`, 127.0.0.0/8, `[::1]`) do not
 * make another one.
 */
function sameServer(a: URL, b: URL): boolean {
  return serverOf(a) === serverOf(b);
}

/** The server `url` names, one string however it is spelt (sameServer). */
export function serverOf(url: URL): string {
  const host = isLoopbackHost(url.hostname) ? "loopback" : url.hostname.replace(/\.$/, "");
  return `${url.protocol}//${host}:${url.port}`;
}

/** The status URL of `umid` at the resolver whose base URL is `resolverUrl`. */
export function statusRefFor(resolverUrl: string, umid: string): string {
  return resolverUrl.replace(/\/+$/, "") + statusPath(umid);
}
