/**
 * What the resolver answers for each UMID, in the working tree (as check found it) or at
 * a git revision: the UMIDs it serves a manifest for, and from which file; its redirects;
 * and the statuses `_routes.json` gives (revoked, suspended, reinstated). A revoked UMID
 * is not served even if its file is there: revocation wins (EXT-OPT O2.3). At a revision,
 * a manifest counts as served if its file is strict JSON with a non-empty string @id, as
 * check reads it; old signatures are not verified again, since the question is what was
 * served then, not whether it would pass today. Each manifest's `issuedAt` is kept, which
 * dates its status (EXT-OPT O2.2 `updatedAt`) when nothing else does. Now, everything is
 * taken from what the check found: no file is read again.
 *
 * Four more files carry trust and are compared too: the status list allocation
 * (`_status/`), whose entries the published lists derive from; `_keys.json`, with the
 * keyRef each manifest at the revision was signed under; `_unsigned.json`, the files
 * published with no verifiable signature; and `_resolvers.json`, the peers relying
 * parties ask for a manifest's status.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { decodeUtf8 } from "../../core/base64url.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { isJsonObject, parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import { instant } from "../../core/date-time.ts";
import type { Limits } from "../config.ts";
import type { ContentCheck } from "../check/check-content.ts";
import {
  displayPath,
  isManifestName,
  KEYS_FILE,
  MAX_LIST_FILE_BYTES,
  ROUTES_FILE,
  UNSIGNED_FILE,
} from "../read/files.ts";
import { checkRoutesText, type RoutesCheck, type RouteStatus } from "../check/routes.ts";
import type { SourceFile } from "../read/source.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { listFolder, readBlobs, type Revision, type TreeFile } from "./git-revision.ts";
import { checkKeysText } from "../check/keys.ts";
import { readUnsignedText, type UnsignedList } from "../check/unsigned.ts";
import { readResolversText, RESOLVERS_FILE, type ResolversList } from "../check/resolvers-document.ts";
import { RESOLVERS_DOCUMENT_MAX_BYTES } from "../../core/client/resolvers-document.ts";
import { addListText, STATUS_FOLDER, StatusAllocation } from "../check/status-allocation.ts";
import type { KeyPins } from "../../core/crypto/profile-a.ts";

export interface ResolverState {
  /**
   * UMID → the manifest file that serves it, its `issuedAt` (milliseconds, NaN if it has
   * none) and, when known, the SHA-256 of its JCS canonical form, as hex (the body's digest).
   */
  published: Map<string, { file: string; digest?: string; issuedAt: number }>;
  redirects: Map<string, string>;
  redirectEntries: Map<string, { pointer: string }>;
  statuses: Map<string, RouteStatus>;
  /** `_routes.json` (named `content/_routes.json@REV` at a revision), to place its entries. */
  routes: SourceFile;
  /** False when `_routes.json` is there but not readable as a JSON object: its lists are unknown. */
  routesKnown: boolean;
  /** The status list allocation (`_status/`), its well-formed entries; empty when there is none. */
  allocation: StatusAllocation;
  /** `_keys.json`, as its pins were read; undefined when there is none. */
  keys: KeyPins | undefined;
  /** At a revision: each keyRef a manifest there was signed under, with the first such file. Empty now. */
  signedUnder: Map<string, string>;
  /** `_unsigned.json`, its entries as written; undefined when there is none. */
  optedIn: UnsignedList | undefined;
  /** `_resolvers.json`, as every client takes it; undefined when there is none. */
  discovery: ResolversList | undefined;
}

/** The working tree, as `checkContent` found it in `contentDir`. */
export function stateNow(check: ContentCheck, contentDir: string): ResolverState {
  const state = routesState(displayPath(join(contentDir, ROUTES_FILE)), check.routes);
  state.allocation = check.statusAllocation;
  state.keys = check.pins;
  state.optedIn = check.optedIn;
  state.discovery = check.discovery;
  // The first file to claim a UMID serves it, valid or not: what it says is what the resolver would answer.
  for (const { file, umid } of check.files) {
    if (umid === null || state.published.has(umid) || !isServed(state, umid)) continue;
    state.published.set(umid, { file, issuedAt: NaN });
  }
  const { published } = check;
  for (let i = 0; i < published.length; i++)
    served(state, published.umidAt(i), published.digestAt(i), published.issuedAt(i));
  for (const { umid, digest, issuedAt } of check.invalidClaims)
    served(state, umid, digest === null ? undefined : Buffer.from(digest).toString("hex"), issuedAt);
  return state;
}

/** Gives the served manifest of `umid`, if it is served in `state`, its digest and issuedAt. */
function served(state: ResolverState, umid: string, digest: string | undefined, issuedAt: number): void {
  const manifest = state.published.get(umid);
  if (manifest === undefined) return;
  manifest.issuedAt = issuedAt;
  if (digest !== undefined) manifest.digest = digest;
}

/**
 * The content folder as committed at `revision` (empty if it did not exist there); with digests if `digests`.
 * `resolverUrl` (UM_RESOLVER_URL, or "") judges the discovery document's peers, as check judges them now.
 */
export async function stateAt(
  revision: Revision,
  contentDir: string,
  limits: Limits,
  validators: SchemaValidators,
  digests: boolean,
  resolverUrl: string,
): Promise<ResolverState> {
  const shown = (name: string) => `${displayPath(join(contentDir, name))}@${revision.name}`;
  const files = await listFolder(revision);
  // As listContent: nothing in node_modules is content. Files over the limit were refused then.
  const manifests = files.filter(
    (f) => isManifestName(f.name) && !f.name.split("/").includes("node_modules") && f.size <= limits.maxManifestBytes,
  );
  const routes = files.find((f) => f.name === ROUTES_FILE);
  const keys = files.find((f) => f.name === KEYS_FILE);
  const unsigned = files.find((f) => f.name === UNSIGNED_FILE);
  const resolvers = files.find((f) => f.name === RESOLVERS_FILE);
  // As checkStatusAllocation lists them: sign's lock and temporary files are no part of it.
  const lists = files.filter(({ name }) => {
    const [folder, list, deeper] = name.split("/");
    return folder === STATUS_FOLDER && deeper === undefined && !list!.startsWith(".") && !list!.endsWith(".lock");
  });
  let routesText = routes === undefined ? undefined : "";
  let keysText = keys === undefined ? undefined : "";
  let unsignedText = unsigned === undefined ? undefined : "";
  let resolversText = resolvers === undefined ? undefined : "";
  const listTexts: { name: string; text: string }[] = [];
  const claims = new Map<string, { file: string; digest?: string; issuedAt: number }>();
  const signedUnder = new Map<string, string>();
  // Each file read with what to do with its text; list files over their limit were refused then, and stay unknown.
  const reads: (readonly [TreeFile, (text: string) => void])[] = [
    ...(routes !== undefined && routes.size <= MAX_LIST_FILE_BYTES
      ? [[routes, (text: string) => (routesText = text)] as const]
      : []),
    ...(keys !== undefined && keys.size <= MAX_LIST_FILE_BYTES
      ? [[keys, (text: string) => (keysText = text)] as const]
      : []),
    ...(unsigned !== undefined && unsigned.size <= MAX_LIST_FILE_BYTES
      ? [[unsigned, (text: string) => (unsignedText = text)] as const]
      : []),
    ...(resolvers !== undefined && resolvers.size <= RESOLVERS_DOCUMENT_MAX_BYTES
      ? [[resolvers, (text: string) => (resolversText = text)] as const]
      : []),
    ...lists
      .filter((list) => list.size <= MAX_LIST_FILE_BYTES)
      .map((list) => [list, (text: string) => listTexts.push({ name: list.name, text })] as const),
    ...manifests.map(
      (f) =>
        [
          f,
          (text: string) => {
            const manifest = readManifest(text, limits);
            if (manifest === undefined) return;
            const file = shown(f.name);
            const keyRef = keyRefOf(manifest.value);
            if (keyRef !== undefined && !signedUnder.has(keyRef)) signedUnder.set(keyRef, file);
            if (claims.has(manifest.umid)) return;
            claims.set(manifest.umid, {
              file,
              issuedAt: issuedAtOf(manifest.value),
              ...(digests && { digest: canonicalDigest(manifest.value) }),
            });
          },
        ] as const,
    ),
  ];
  await readBlobs(
    revision.top,
    reads.map(([f]) => f.blob),
    (index, bytes) => reads[index]![1](textOf(bytes)),
  );
  const routesFile = shown(ROUTES_FILE);
  const state = routesState(
    routesFile,
    routesText === undefined ? undefined : checkRoutesText(routesFile, routesText, validators),
  );
  for (const [umid, served] of claims) if (isServed(state, umid)) state.published.set(umid, served);
  // Read as the check read them then; what is wrong with them was that check's business.
  for (const { name, text } of listTexts)
    addListText(state.allocation, shown(name), name.slice(STATUS_FOLDER.length + 1), text, "");
  if (keysText !== undefined) {
    const checked = checkKeysText(shown(KEYS_FILE), keysText, validators);
    state.keys = checked.pins ?? { file: shown(KEYS_FILE), keys: new Map(), unreadable: true };
  } else if (keys !== undefined) state.keys = { file: shown(KEYS_FILE), keys: new Map(), unreadable: true };
  state.signedUnder = signedUnder;
  // A file over its limit was refused then, its text left empty: read as unreadable.
  if (unsignedText !== undefined) state.optedIn = readUnsignedText(shown(UNSIGNED_FILE), unsignedText, validators).list;
  if (resolversText !== undefined)
    state.discovery = readResolversText(shown(RESOLVERS_FILE), resolversText, resolverUrl).list;
  return state;
}

/** No content at all: what `--summary` compares with when there is no `--base`. */
export function emptyState(): ResolverState {
  return routesState("", undefined);
}

/** The state `_routes.json` (`file`) alone makes, as checked (undefined: there is none), before any manifest. */
function routesState(file: string, routes: RoutesCheck | undefined): ResolverState {
  return {
    published: new Map(),
    redirects: routes?.redirects ?? new Map(),
    redirectEntries: routes?.redirectEntries ?? new Map(),
    statuses: routes?.statuses ?? new Map(),
    routes: routes?.source ?? { file },
    routesKnown: routes?.isObject ?? true,
    allocation: new StatusAllocation(),
    keys: undefined,
    signedUnder: new Map(),
    optedIn: undefined,
    discovery: undefined,
  };
}

/** Whether a manifest for `umid` is served: not when the UMID is revoked or redirected. */
function isServed(state: ResolverState, umid: string): boolean {
  return !state.redirects.has(umid) && state.statuses.get(umid)?.list !== "revoked";
}

/** A manifest's text read as check reads it: strict JSON within the limits, an object with a non-empty string @id. */
function readManifest(text: string, limits: ShapeLimits): { umid: string; value: Record<string, unknown> } | undefined {
  const parsed = parseJson(text, limits);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const umid = parsed.value["@id"];
  return typeof umid === "string" && umid !== "" ? { umid, value: parsed.value } : undefined;
}

/** The keyRef the manifest says it was signed under (Profile A: `signature.keyRef`), if it names one. */
function keyRefOf(manifest: Record<string, unknown>): string | undefined {
  const signature = manifest.signature;
  const keyRef = isJsonObject(signature) ? signature.keyRef : undefined;
  return typeof keyRef === "string" ? keyRef : undefined;
}

/** `issuedAt` as the build reads it (manifest-check.ts): milliseconds, NaN when it is not a date-time. */
function issuedAtOf(manifest: Record<string, unknown>): number {
  return instant(manifest.issuedAt) ?? NaN;
}

/** The SHA-256 of the canonical form, as hex: as check gives a body's digest (PublishedManifests.digestAt). */
function canonicalDigest(value: unknown): string {
  return createHash("sha256").update(canonicalize(value)).digest("hex");
}

/** A blob as readSourceText reads a file: UTF-8 ("" if it is not), a byte order mark dropped. */
function textOf(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes) ?? "";
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
