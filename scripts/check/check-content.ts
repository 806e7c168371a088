/**
 * The one validator of content, shared by `build` and `check`: `_keys.json`,
 * `_unsigned.json`, `_routes.json`, every manifest (see manifest-check.ts, run on every
 * core by manifest-pool.ts), the rules across files (one file per UMID, one fate per
 * UMID), and every other file of the content root (no private key, no list file below
 * its top, where it would be ignored).
 *
 * It holds one small record per manifest, never the manifests: each manifest to publish
 * is handed to the caller's `publish` hook as soon as it is checked. It writes nothing
 * itself but, given the verification cache, the entries of the files it checked into it.
 */
import { existsSync, lstatSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { quoted } from "../../core/excerpt.ts";
import type { KeyPins } from "../../core/crypto/profile-a.ts";
import { cacheScope, type UsableEntries, type VerificationCache } from "../cache/verification-cache.ts";
import { gitAlias, statAlias, statIdentity } from "../cache/file-identity.ts";
import type { ShardSummaries } from "../cache/shard-summaries.ts";
import { type GitAlgorithm, gitView } from "../read/git-view.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { schemaValidators, type SchemaValidators } from "../validate/schema-validator.ts";
import { isInside, realPath } from "../read/content-root.ts";
import {
  displayPath,
  KEYS_FILE,
  LIST_FILES,
  listContent,
  LIST_FILE_LIMIT,
  MAX_LIST_FILE_BYTES,
  readHead,
  readSourceText,
  ROUTES_FILE,
  UNSIGNED_FILE,
} from "../read/files.ts";
import { didWebDocuments, type DidWebDocument } from "./did-web-documents.ts";
import { checkKeys, openWorldWarning, type KeysCheck, type PinnedKey } from "./keys.ts";
import type { CheckedManifest, ValidManifest } from "./checked-manifest.ts";
import { checkManifestFile, type CheckOptions, type ManifestContext } from "./manifest-check.ts";
import { checkManifestFiles, type CacheUse } from "./manifest-pool.ts";
import { checkRoutesText, type RouteStatus, type RoutesCheck } from "./routes.ts";
import { PublishedManifests } from "./published.ts";
import { checkStatusAllocation, STATUS_FOLDER, StatusAllocation } from "./status-allocation.ts";
import { statusRefProblem } from "./status-refs.ts";
import { checkResolversDocument, RESOLVERS_FILE, type ResolversList } from "./resolvers-document.ts";
import { privateKeyProblem } from "./private-keys.ts";
import { linkedRootProblem, linkProblems } from "./symlinks.ts";
import { filePlace, placed, placedAt } from "../read/source.ts";
import type { Place } from "../../core/json/source-map.ts";
import { checkUnsigned, commandLineOptIns, type UnsignedList } from "./unsigned.ts";
import { appendAll } from "../../core/append-all.ts";

export type { CheckOptions } from "./manifest-check.ts";

/**
 * How a check is run: its options, who is told of each manifest checked (for a progress line), and the verification
 * cache, if used.
 */
export type ContentCheckOptions = CheckOptions & {
  progress?: (checked: number, total: number) => void;
  cache?: VerificationCache;
};

/** What the content holds, known before its manifests are checked: the build chooses its outputs by it. */
export interface ContentOutline {
  manifestFiles: number;
  redirects: number;
  revoked: number;
  /** Whether did:web documents are to be published. */
  didDocuments: boolean;
}

/**
 * Who is told, as the check goes, what it finds: `pinned` as soon as a content root's
 * `_keys.json` is read, with the keys it pins (check resolves them online meanwhile);
 * `outline` once the content's size and
 * routes are known, before any manifest is checked; `publish` for each manifest that a
 * build would publish, as soon as it is checked (so that no build holds a million bodies).
 * `publish` returning false says that a body recalled from the cache's blob store could
 * not be had: the file is checked again, and must still be what the cache recalled.
 */
export interface ContentCheckHooks {
  pinned?(pinned: readonly PinnedKey[]): void;
  outline?(outline: ContentOutline): Promise<void>;
  publish?(manifest: ValidManifest): Promise<boolean>;
}

export interface ContentCheck {
  /**
   * Every file checked, in order, with the UMID it claims (null for none), and whether it was checked as a manifest
   * (one that claims no UMID, say unparsable, too); a build's lists no manifest.
   */
  files: { file: string; umid: string | null; manifest?: true }[];
  /** The valid manifests to publish, in file order. */
  published: PublishedManifests;
  /** Those of them checked as legacy payloads (manifestVersion < 0.4). */
  legacy: { file: string; version: string }[];
  /**
   * The manifests that claim a UMID first and are invalid, in file order: what the resolver would answer for them is
   * what they say, so `check --base` counts them as served.
   */
  invalidClaims: { umid: string; digest: Uint8Array | null; issuedAt: number }[];
  /** `_routes.json` as checked; undefined when there is none. */
  routes: RoutesCheck | undefined;
  redirects: Map<string, string>;
  revoked: Set<string>;
  /** What `_routes.json` says of each revoked, suspended or reinstated UMID. */
  statuses: Map<string, RouteStatus>;
  /** The did:web documents of keys pinned on UM_RESOLVER_URL's host, to publish. */
  didDocuments: DidWebDocument[];
  /** The status list allocation of `_status/` (status-allocation.ts), as checked. */
  statusAllocation: StatusAllocation;
  /** The discovery document to publish (`_resolvers.json`: resolvers-document.ts), when there is one. */
  resolversDocument: string | undefined;
  /** `_resolvers.json`, as every client takes it; undefined when there is none. */
  discovery: ResolversList | undefined;
  diagnostics: Diagnostic[];
  /** The keys the first content root's `_keys.json` pins, when a file of a content folder was checked. */
  pinned: PinnedKey[];
  /** The content root's `_keys.json`, as checked by checkContent; undefined when there is none. */
  pins: KeyPins | undefined;
  /** The content root's `_unsigned.json`, its entries as written; undefined when there is none. */
  optedIn: UnsignedList | undefined;
  /** How many manifest files were not checked again: the verification cache knew them. */
  recalled: number;
  /**
   * The body of the published UMID `umid` again, from its file checked anew, which must still be what the check
   * published (its body's SHA-256, `digest`, hex): for a build that needs a body its output and the cache's blob
   * store no longer hold. Undefined, with a `file/changed` problem in `diagnostics`, when the file changed since.
   */
  bodyAgain(umid: string, digest: string): Uint8Array | undefined;
}

/**
 * A content directory: its manifests, `_keys.json`, `_unsigned.json`, `_routes.json`, the
 * rules across them, and the files that must not be there.
 */
export async function checkContent(
  dir: string,
  options: ContentCheckOptions,
  hooks: ContentCheckHooks = {},
): Promise<ContentCheck> {
  const result = emptyCheck();
  const missing = await missingContentProblem(dir);
  if (missing !== undefined) {
    result.diagnostics.push(missing);
    result.files.push({ file: displayPath(dir), umid: null });
    return result;
  }
  const validators = schemaValidators(options.settings.contextUrl, options.settings.resolverUrl);
  const listed = listContent(dir);
  // git runs while the folder is listed; its view is only worth asking for with a cache to use it.
  const git =
    options.cache &&
    gitView(
      dir,
      listed.then((listing) => listing.others),
    );
  const listing = await listed;
  const linkedRoot = linkedRootProblem(dir);
  if (linkedRoot !== undefined) addFiles(result, [{ file: linkedRoot.file, diagnostics: [linkedRoot] }]);
  addFiles(result, linkProblems(dir, listing.links));
  const root = checkRootFiles(dir, options, validators);
  hooks.pinned?.(root.pinned);
  result.pinned = root.pinned;
  result.pins = root.context.pins;
  result.optedIn = root.optedIn;
  // Routes come first: a revoked UMID's body is never written.
  const routesPath = join(dir, ROUTES_FILE);
  const routes = checkRoutes(routesPath, validators);
  if (routes !== undefined) {
    result.routes = routes;
    result.redirects = routes.redirects;
    result.revoked = routes.revoked;
    result.statuses = routes.statuses;
  }
  // Read before the manifests, whose statusRefs are held to it as they arrive.
  const allocation = checkStatusAllocation(dir, options.settings.resolverUrl);
  result.statusAllocation = allocation;

  const files = { dir, names: listing.manifests };
  const fileAt = (i: number) => displayPath(join(dir, files.names[i]!));
  await hooks.outline?.({
    manifestFiles: files.names.length,
    redirects: result.redirects.size,
    revoked: result.revoked.size,
    didDocuments: root.didDocuments.length > 0,
  });
  /** UMID → the index of the file that claims it first. */
  const claimed = new Map<string, number>();
  /** Where the @id of the file at each index that claims a UMID is: two numbers a file, for a million files. */
  const claimLines = new Uint32Array(files.names.length);
  const claimColumns = new Uint32Array(files.names.length);
  const claimAt = (index: number) =>
    filePlace(fileAt(index), { line: claimLines[index]!, column: claimColumns[index]! });
  const withheld: { file: string; umid: string; at: Place | undefined }[] = [];
  /**
   * The file at `index` checked anew, valid and with its body's digest still `digest` (else a `file/changed`
   * problem): the cache recalled it, and a file edited since is not published unchecked.
   */
  const checkedAgain = (index: number, digest: Uint8Array): ValidManifest | undefined => {
    result.recalled--;
    const again = checkManifestFile(join(dir, files.names[index]!), root.context) as CheckedManifest;
    if (again.state === "valid" && Buffer.from(again.digest).equals(digest)) return again;
    result.diagnostics.push(
      diagnostic("file/changed", { file: fileAt(index) }, "changed while the build read it: build again"),
    );
    return undefined;
  };
  /** Publishes a manifest checked; again from its file when the body recalled cannot be had. */
  const publish = async (
    manifest: ValidManifest,
    index: number,
    publishHook: (m: ValidManifest) => Promise<boolean>,
  ) => {
    if (await publishHook(manifest)) return;
    const again = checkedAgain(index, manifest.digest);
    if (again !== undefined) await publishHook(again);
  };
  let checked = 0;
  await checkManifestFiles(
    files,
    root.context,
    // Not async: only a build's publishing waits, and a check takes a million results without a promise each.
    (manifest, index) => {
      options.progress?.(++checked, files.names.length);
      keepEntry(result, options.cache, manifest);
      appendAll(result.diagnostics, manifest.diagnostics);
      // A million entries a build never reads: only a check without a publish hook lists them.
      if (hooks.publish === undefined) result.files.push({ file: manifest.file, umid: manifest.umid, manifest: true });
      const umid = manifest.umid;
      if (umid === null) return;
      const first = claimed.get(umid);
      if (first !== undefined) {
        // One file per UMID. A manifest that failed other checks still claims its @id, so a
        // duplicate is reported even before the first copy is fixed.
        result.diagnostics.push(
          placedAt(
            manifest.file,
            manifest.umidAt ?? undefined,
            "/@id",
            "umid/duplicate",
            `@id ${quoted(umid)} is also the @id of ${claimAt(first)}`,
          ),
        );
        return;
      }
      claimed.set(umid, index);
      claimLines[index] = manifest.umidAt?.line ?? 0;
      claimColumns[index] = manifest.umidAt?.column ?? 0;
      const borrowed =
        manifest.statusRef &&
        statusRefProblem(allocation, options.settings.resolverUrl, manifest.file, umid, manifest.statusRef);
      if (borrowed) result.diagnostics.push(borrowed);
      if (manifest.state === "invalid") {
        result.invalidClaims.push({ umid, digest: manifest.digest, issuedAt: manifest.issuedAt });
        return;
      }
      if (result.redirects.has(umid)) return;
      if (result.revoked.has(umid)) {
        withheld.push({ file: manifest.file, umid, at: manifest.umidAt ?? undefined });
        return;
      }
      result.published.add(umid, manifest.digest, manifest.issuedAt);
      if (manifest.legacyVersion !== null) result.legacy.push({ file: manifest.file, version: manifest.legacyVersion });
      return hooks.publish && publish(manifest, index, hooks.publish);
    },
    options.cache && (await cacheUse(options, options.cache.usable(root.context), dir, git, options.cache.summaries)),
  );
  result.bodyAgain = (umid, digest) => {
    const again = checkedAgain(claimed.get(umid)!, Buffer.from(digest, "hex"));
    return again?.body.kind === "bytes" ? again.body.bytes : undefined;
  };

  addFiles(result, root.checked);
  appendAll(result.diagnostics, allocation.diagnostics);
  for (const file of allocation.files) result.files.push({ file, umid: null });
  const resolvers = checkResolversDocument(dir, options.settings.resolverUrl);
  addFiles(result, [resolvers]);
  result.resolversDocument = resolvers.body;
  result.discovery = resolvers.list;
  result.didDocuments = root.didDocuments;
  if (routes !== undefined) {
    result.files.push({ file: displayPath(routesPath), umid: null });
    appendAll(result.diagnostics, routes.diagnostics);
    for (const [umid, { pointer }] of routes.redirectEntries) {
      const manifest = claimed.get(umid);
      if (manifest === undefined) continue;
      const message = `UMID ${quoted(umid)} is redirected here and published by ${claimAt(manifest)}; remove one of them`;
      result.diagnostics.push(placed(routes.source, pointer, "routes/conflict", message));
    }
    // Suspension is a status of a manifest served (O2.3): there must be one.
    for (const [umid, { list, pointer }] of routes.statuses) {
      if (list === "revoked" || claimed.has(umid)) continue;
      result.diagnostics.push(
        placed(
          routes.source,
          `${pointer}/umid`,
          "routes/unpublished",
          `UMID ${quoted(umid)} is ${list} here, but no manifest in the content folder ` +
            `publishes it; remove the entry (or revoke or redirect the UMID)`,
        ),
      );
    }
  }
  for (const { file, umid, at } of withheld) {
    result.diagnostics.push(
      placedAt(
        file,
        at,
        "/@id",
        "routes/withheld",
        `${quoted(umid)} is revoked in ${ROUTES_FILE}, so this manifest is not published`,
      ),
    );
  }
  addFiles(
    result,
    listing.others.flatMap((name) => otherFileProblems(dir, join(dir, name))),
  );
  return result;
}

/**
 * Whether `file` is named as a list file of a content folder: `_keys.json`, `_routes.json`, `_unsigned.json`,
 * `_resolvers.json`, or a file of `_status/` (though a list of it is named like a manifest).
 */
export function isListFile(file: string): boolean {
  const name = basename(file);
  return LIST_FILES.has(name) || name === RESOLVERS_FILE || basename(dirname(file)) === STATUS_FOLDER;
}

/**
 * Files and directories as `check` takes them: a directory is a content root, unless it
 * lies in `contentDir`; a file is one manifest (or, by its name, a list file), judged as
 * the build judges it: by the `_keys.json` and `_unsigned.json` of the content root
 * `contentDir` if it lies there, by none otherwise. `allowUnsigned` names files outside
 * it opted in from the command line. `judgeRoot` adds what is judged of a whole content
 * root beyond its files (its log: check passes the gate, which this module cannot import)
 * to the root's check, before it joins the others. `hooks.pinned` is told each content
 * root's pins as the root's `_keys.json` is read.
 */
export async function checkPaths(
  paths: string[],
  options: ContentCheckOptions & {
    contentDir: string;
    allowUnsigned: readonly string[];
    judgeRoot?: (dir: string, check: ContentCheck) => Promise<void>;
  },
  hooks: Pick<ContentCheckHooks, "pinned"> = {},
): Promise<ContentCheck> {
  const result = emptyCheck();
  const { contentDir } = options;
  const validators = schemaValidators(options.settings.contextUrl, options.settings.resolverUrl);
  let root: RootFiles | undefined;
  let loose: ManifestContext | undefined;
  /** The content root's allocation, read at the first manifest of the root: its statusRefs are held to it. */
  let allocation: StatusAllocation | undefined;
  const caches = new Map<ManifestContext, UsableEntries>();

  const contextFor = (path: string): ManifestContext => {
    if (isInside(path, contentDir)) {
      if (root === undefined) {
        // Judged exactly as the build judges them: --allow-unsigned is for files outside it.
        root = checkRootFiles(contentDir, options, validators);
        hooks.pinned?.(root.pinned);
        if (result.pinned.length === 0) result.pinned = root.pinned;
        // The root's own files are reported once, where they bear on the files checked.
        addFiles(
          result,
          root.checked.filter((checked) => checked.diagnostics.length > 0),
        );
      }
      return root.context;
    }
    if (loose === undefined) {
      loose = { ...options, pins: undefined, unsigned: commandLineOptIns(options.allowUnsigned) };
      result.diagnostics.push(openWorldWarning(displayPath(path), options.strict));
    }
    return loose;
  };
  const checkFile = async (path: string): Promise<void> => {
    const name = basename(path);
    const misplaced = isInside(path, contentDir) ? misplacedListFile(contentDir, path) : undefined;
    if (misplaced !== undefined) {
      addFiles(result, [{ file: misplaced.file, diagnostics: [misplaced] }]);
    } else if (name === KEYS_FILE) {
      addFiles(result, [withDidDocuments(checkKeys(path, validators), options.settings.resolverUrl)]);
    } else if (name === UNSIGNED_FILE) {
      addFiles(result, [checkUnsigned(dirname(path), validators)]);
    } else if (name === ROUTES_FILE) {
      addFiles(result, [
        { file: displayPath(path), diagnostics: checkRoutes(path, validators)?.diagnostics ?? [missingFile(path)] },
      ]);
    } else if (name === RESOLVERS_FILE && existsSync(path)) {
      addFiles(result, [checkResolversDocument(dirname(path), options.settings.resolverUrl)]);
    } else if (basename(dirname(path)) === STATUS_FOLDER && existsSync(path)) {
      // A list of the allocation, judged with the others: an entry's UMID may not be in two of them.
      const file = displayPath(path);
      const allocation = checkStatusAllocation(dirname(dirname(path)), options.settings.resolverUrl);
      addFiles(result, [{ file, diagnostics: allocation.diagnostics.filter((d) => d.file === file) }]);
    } else if (!existsSync(path)) {
      addFiles(result, [{ file: displayPath(path), diagnostics: [missingFile(path)] }]);
    } else {
      const context = contextFor(path);
      const { cache } = options;
      if (cache !== undefined && !caches.has(context)) caches.set(context, cache.usable(context));
      // Named as in its content root, as a check of the whole root names it: one cache entry serves both.
      const inRoot = isInside(path, contentDir);
      const files = inRoot
        ? { dir: contentDir, names: [relative(realPath(contentDir), realPath(path)).split(sep).join("/")] }
        : { dir: dirname(path), names: [name] };
      if (inRoot) allocation ??= checkStatusAllocation(contentDir, options.settings.resolverUrl);
      await checkManifestFiles(
        files,
        context,
        (manifest) => {
          keepEntry(result, options.cache, manifest);
          result.files.push({ file: manifest.file, umid: manifest.umid, manifest: true });
          appendAll(result.diagnostics, manifest.diagnostics);
          // As the content's check holds it (checkContent): a statusRef into a list borrows no other UMID's entry.
          const borrowed =
            inRoot &&
            manifest.umid !== null &&
            manifest.statusRef &&
            statusRefProblem(
              allocation!,
              options.settings.resolverUrl,
              manifest.file,
              manifest.umid,
              manifest.statusRef,
            );
          if (borrowed) result.diagnostics.push(borrowed);
        },
        cache && (await cacheUse(options, caches.get(context)!, files.dir, undefined)),
      );
    }
  };

  for (const path of paths) {
    if (!(await isDirectory(path))) {
      await checkFile(path);
    } else if (isInside(path, contentDir) && resolve(path) !== resolve(contentDir)) {
      // A folder of the content root: its files, judged as the root's.
      const listing = await listContent(path);
      for (const [i, name] of listing.manifests.entries()) {
        await checkFile(join(path, name));
        options.progress?.(i + 1, listing.manifests.length);
      }
      for (const name of listing.others) addFiles(result, otherFileProblems(contentDir, join(path, name)));
      addFiles(result, linkProblems(path, listing.links));
    } else {
      const part = await checkContent(path, options, hooks);
      await options.judgeRoot?.(path, part);
      appendAll(result.files, part.files);
      appendAll(result.diagnostics, part.diagnostics);
      result.recalled += part.recalled;
      if (result.pinned.length === 0) result.pinned = part.pinned;
    }
  }
  return result;
}

/**
 * What a content root's own files (`_keys.json`, `_unsigned.json`) say, as files checked, and the context they make.
 */
export interface RootFiles {
  checked: { file?: string; diagnostics: Diagnostic[] }[];
  context: ManifestContext;
  pinned: PinnedKey[];
  didDocuments: DidWebDocument[];
  /** `_unsigned.json`, its entries as written; undefined when there is none. */
  optedIn: UnsignedList | undefined;
}

export function checkRootFiles(dir: string, options: CheckOptions, validators: SchemaValidators): RootFiles {
  const keys = withDidDocuments(checkKeys(join(dir, KEYS_FILE), validators), options.settings.resolverUrl);
  const unsigned = checkUnsigned(dir, validators);
  const keysChecked =
    keys.file !== undefined
      ? keys
      : {
          file: displayPath(join(dir, KEYS_FILE)),
          diagnostics: [openWorldWarning(displayPath(join(dir, KEYS_FILE)), options.strict)],
        };
  return {
    checked: [keysChecked, unsigned],
    context: { ...options, pins: keys.pins, unsigned: unsigned.optIns },
    pinned: keys.pinned,
    didDocuments: keys.didDocuments,
    optedIn: unsigned.list,
  };
}

/** A content root's `_keys.json` with the did:web documents its pins make, and what keeps any from being published. */
function withDidDocuments(keys: KeysCheck, resolverUrl: string): KeysCheck & { didDocuments: DidWebDocument[] } {
  const { documents, diagnostics } = didWebDocuments(keys.pinned, resolverUrl);
  return { ...keys, diagnostics: [...keys.diagnostics, ...diagnostics], didDocuments: documents };
}

/** A file of the content root `dir` that is not a manifest: a private key, or a list file below the top, fails. */
function otherFileProblems(dir: string, path: string): { file: string; diagnostics: Diagnostic[] }[] {
  const file = displayPath(path);
  // Any bytes, read as Latin-1: PEM armour is ASCII, whatever else a file holds.
  const problem =
    misplacedListFile(dir, path) ?? privateKeyProblem(file, readHead(path, MAX_LIST_FILE_BYTES).toString("latin1"));
  return problem === undefined ? [] : [{ file, diagnostics: [problem] }];
}

/** The error for a list file of the content root `dir` below its top, where the build would ignore it. */
function misplacedListFile(dir: string, path: string): Diagnostic | undefined {
  const name = basename(path);
  if (!LIST_FILES.has(name) || resolve(dirname(path)) === resolve(dir)) return undefined;
  const root = displayPath(dir);
  return diagnostic(
    "content/misplaced",
    { file: displayPath(path) },
    `only ${join(root, name)} applies to ${root}/: this ${name} would be ignored by the build, so it is ` +
      "refused; move its entries there and delete it",
  );
}

/** `_routes.json` on its own; undefined when there is none. */
function checkRoutes(path: string, validators: SchemaValidators): RoutesCheck | undefined {
  const read = readSourceText(path, LIST_FILE_LIMIT);
  const file = displayPath(path);
  if ("diagnostic" in read) {
    return read.missing
      ? undefined
      : {
          source: { file },
          document: {},
          isObject: false,
          redirects: new Map(),
          redirectEntries: new Map(),
          revoked: new Set(),
          statuses: new Map(),
          diagnostics: [read.diagnostic],
        };
  }
  return checkRoutesText(file, read.text, validators);
}

/**
 * The verification cache as a check of the files in `dir` uses it: in a git working tree, files are known by
 * git's view of them, elsewhere by their status. `summaries`: a whole content root's check, whose shards have them.
 * A cache that knows no file (a cold run) looks none up: the check starts once git has said its object format, and
 * git's blob ids, which only the summaries made of this run read, arrive meanwhile (`ready`).
 */
async function cacheUse(
  options: ContentCheckOptions,
  usable: UsableEntries,
  dir: string,
  git: ReturnType<typeof gitView> | undefined,
  summaries?: ShardSummaries,
): Promise<CacheUse> {
  const scope = cacheScope(options.settings);
  const shared = { scope, usable, ...(summaries && { summaries }) };
  const gitUse = (algorithm: GitAlgorithm, blobs: () => ReadonlyMap<string, string>) => ({
    ...shared,
    source: { git: algorithm },
    identityOf: (name: string) => blobs().get(name),
    aliasOf: (name: string, blob: string) => gitAlias(scope, name, algorithm, blob),
  });
  const algorithm = usable.usable.length === 0 ? await git?.algorithm : undefined;
  if (algorithm !== undefined) {
    let blobs: ReadonlyMap<string, string> = new Map();
    const ready = git!.view.then((view) => {
      if (view !== undefined) blobs = view.blobs;
    });
    return { ...gitUse(algorithm, () => blobs), ready };
  }
  const view = await git?.view;
  if (view !== undefined) return gitUse(view.algorithm, () => view.blobs);
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    ...shared,
    source: "stat",
    identityOf: (name) => {
      const status = lstatSync(join(dir, name), { bigint: true, throwIfNoEntry: false });
      return status?.isFile() ? statIdentity(status, now) : undefined;
    },
    aliasOf: (name, identity) => statAlias(scope, name, identity),
  };
}

/** Counts a manifest the cache knew; keeps the entry of one it did not. */
function keepEntry(result: ContentCheck, cache: VerificationCache | undefined, manifest: CheckedManifest): void {
  if (manifest.recalled) result.recalled++;
  else if (manifest.cacheEntry !== null) {
    const { key, alias, verdict } = manifest.cacheEntry;
    cache?.add(key, alias, verdict);
  }
}

/** Files checked on their own (`file` undefined: there is none), with what was found in them. */
function addFiles(result: ContentCheck, checked: { file?: string; diagnostics: Diagnostic[] }[]): void {
  for (const { file, diagnostics } of checked) {
    if (file === undefined) continue;
    result.files.push({ file, umid: null });
    appendAll(result.diagnostics, diagnostics);
  }
}

function emptyCheck(): ContentCheck {
  return {
    files: [],
    published: new PublishedManifests(),
    legacy: [],
    invalidClaims: [],
    routes: undefined,
    redirects: new Map(),
    revoked: new Set(),
    statuses: new Map(),
    pinned: [],
    pins: undefined,
    optedIn: undefined,
    didDocuments: [],
    statusAllocation: new StatusAllocation(),
    resolversDocument: undefined,
    discovery: undefined,
    diagnostics: [],
    recalled: 0,
    bodyAgain: () => {
      throw new Error("no content root was checked");
    },
  };
}

/**
 * The error for a content folder that is not there; undefined when it is. It names the
 * absolute path, as a relative one hides which folder was the project's (the nearest one
 * up with a package.json or .git).
 */
export async function missingContentProblem(dir: string): Promise<Diagnostic | undefined> {
  if (await isDirectory(dir)) return undefined;
  return diagnostic(
    "file/unreadable",
    { file: displayPath(dir) },
    `no such content directory: looked for ${resolve(dir)}; run manifest-resolver init to make a project ` +
      "here, or name your content folder with --content DIR",
  );
}

function missingFile(path: string): Diagnostic {
  return diagnostic("file/unreadable", { file: displayPath(path) }, "file not found");
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
