/**
 * The one validator of content, shared by `build` and `check`: `_keys.json`,
 * `_routes.json`, every manifest (see manifest-check.ts, run on every core by
 * manifest-pool.ts), and the rules across files (one file per UMID, one fate per UMID).
 *
 * It holds one small record per manifest, never the manifests: for the build, each valid
 * manifest's body goes to a sink as soon as it is checked. It writes nothing itself.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Settings } from "../config.ts";
import { hasErrors, type Diagnostic } from "../diagnostics.ts";
import { schemaValidators, type SchemaValidators } from "../validate/schema-validator.ts";
import { displayPath, KEYS_FILE, manifestFiles, MAX_LIST_FILE_BYTES, readSourceText, ROUTES_FILE } from "./files.ts";
import { checkKeys, type KeysCheck } from "./keys.ts";
import { type CheckOptions, type ManifestContext } from "./manifest-check.ts";
import { checkManifestFiles } from "./manifest-pool.ts";
import { checkRoutesText, type RoutesCheck } from "./routes.ts";
import { PublishedManifests } from "./published.ts";
import { placed, placeOf, type SourceFile } from "./source.ts";

export type { CheckOptions } from "./manifest-check.ts";

/** Where the build puts each valid, publishable manifest's body as soon as it is checked. */
export interface BodySink {
  write(umid: string, body: Uint8Array, etag: string): void | Promise<void>;
}

export interface ContentCheck {
  /** Every file checked, in order, with the UMID it claims (null for none); not kept by a build (with a sink). */
  files: { file: string; umid: string | null }[];
  /** Valid manifests a build publishes, in file order (their bodies went to the sink); empty when only checking. */
  published: PublishedManifests;
  /** Those of them checked as legacy payloads (manifestVersion < 0.4). */
  legacy: { file: string; version: string }[];
  redirects: Map<string, string>;
  revoked: Set<string>;
  diagnostics: Diagnostic[];
}

/**
 * A content directory: its manifests, `_keys.json`, `_routes.json`, and the rules across
 * them. A build passes `sinkFor`, which is told how many manifest files there are (so that
 * it can choose its outputs without listing the directory again) and returns the sink.
 */
export async function checkContent(dir: string, options: CheckOptions, sinkFor?: (manifestFiles: number) => Promise<BodySink>): Promise<ContentCheck> {
  const result = emptyCheck();
  if (!(await isDirectory(dir))) {
    result.diagnostics.push({ severity: "error", file: displayPath(dir), rule: "file/unreadable", message: "no such content directory" });
    result.files.push({ file: displayPath(dir), umid: null });
    return result;
  }
  const validators = schemaValidators(options.settings.contextUrl);
  const keys = checkKeys(await findKeysFile(dir), validators);
  // Routes come first: a revoked UMID's body is never written.
  const routesPath = join(dir, ROUTES_FILE);
  const routes = checkRoutes(routesPath, validators);
  if (routes !== undefined) {
    result.redirects = routes.redirects;
    result.revoked = routes.revoked;
  }

  const context: ManifestContext = { ...options, validators, pinned: keys.pinned };
  const files = { dir, names: await manifestFiles(dir) };
  const fileAt = (i: number) => displayPath(join(dir, files.names[i]!));
  const sink = await sinkFor?.(files.names.length);
  /** UMID → the index of the file that claims it first. */
  const claimed = new Map<string, number>();
  const withheld: { file: string; umid: string }[] = [];
  await checkManifestFiles(files, context, sink !== undefined, async (manifest, index) => {
    result.diagnostics.push(...manifest.diagnostics);
    // A million entries a build never reads: only check lists them.
    if (sink === undefined) result.files.push({ file: manifest.file, umid: manifest.umid ?? null });
    const umid = manifest.umid;
    if (umid === undefined) return;
    const first = claimed.get(umid);
    if (first !== undefined) {
      // One file per UMID. A manifest that failed other checks still claims its @id, so a
      // duplicate is reported even before the first copy is fixed.
      const source = sourceOf(manifest.file, options.settings);
      result.diagnostics.push(placed(source, "/@id", "umid/duplicate", `@id ${JSON.stringify(umid)} is also the @id of ${placeOf(sourceOf(fileAt(first), options.settings), "/@id")}`));
      return;
    }
    claimed.set(umid, index);
    if (hasErrors(manifest.diagnostics) || result.redirects.has(umid)) return;
    if (result.revoked.has(umid)) {
      withheld.push({ file: manifest.file, umid });
      return;
    }
    if (sink === undefined || manifest.body === undefined || manifest.etag === undefined) return;
    result.published.add(umid, manifest.etag);
    if (manifest.legacyVersion !== undefined) result.legacy.push({ file: manifest.file, version: manifest.legacyVersion });
    await sink.write(umid, manifest.body, manifest.etag);
  });

  addKeysFile(result, keys);
  if (routes !== undefined) {
    result.files.push({ file: displayPath(routesPath), umid: null });
    result.diagnostics.push(...routes.diagnostics);
    for (const [umid, { pointer }] of routes.redirectEntries) {
      const manifest = claimed.get(umid);
      if (manifest === undefined) continue;
      const message = `UMID ${JSON.stringify(umid)} is redirected here and published by ${placeOf(sourceOf(fileAt(manifest), options.settings), "/@id")}; remove one of them`;
      result.diagnostics.push(placed(routes.source, pointer, "routes/conflict", message));
    }
  }
  for (const { file, umid } of withheld) {
    const source = sourceOf(file, options.settings);
    result.diagnostics.push({ ...placed(source, "/@id", "routes/withheld", `${JSON.stringify(umid)} is revoked in ${ROUTES_FILE}, so this manifest is not published`), severity: "warning" });
  }
  return result;
}

/**
 * Files and directories as `check` takes them: a directory is a content directory; a
 * file is one manifest (or, by its name, a `_routes.json` or `_keys.json`), checked
 * against the keys pinned in the nearest `_keys.json` at or above it.
 */
export async function checkPaths(paths: string[], options: CheckOptions): Promise<ContentCheck> {
  const result = emptyCheck();
  const validators = schemaValidators(options.settings.contextUrl);
  for (const path of paths) {
    let part = emptyCheck();
    if (await isDirectory(path)) {
      part = await checkContent(path, options);
    } else if (basename(path) === KEYS_FILE) {
      addKeysFile(part, checkKeys(path, validators));
    } else if (basename(path) === ROUTES_FILE) {
      const routes = checkRoutes(path, validators);
      part.files.push({ file: displayPath(path), umid: null });
      part.diagnostics.push(...(routes?.diagnostics ?? [missingFile(path)]));
    } else {
      const keys = checkKeys(await findKeysFile(dirname(path)), validators);
      await checkManifestFiles({ dir: dirname(path), names: [basename(path)] }, { ...options, validators, pinned: keys.pinned }, false, (manifest) => {
        part.files.push({ file: manifest.file, umid: manifest.umid ?? null });
        part.diagnostics.push(...manifest.diagnostics);
      });
    }
    result.files.push(...part.files);
    result.diagnostics.push(...part.diagnostics);
  }
  return result;
}

/** `_routes.json` on its own; undefined when there is none. */
function checkRoutes(path: string, validators: SchemaValidators): (RoutesCheck & { source: SourceFile }) | undefined {
  const read = readSourceText(path, MAX_LIST_FILE_BYTES);
  const source = { file: displayPath(path), text: "text" in read ? read.text : "" };
  if ("diagnostic" in read) {
    return read.missing ? undefined : { source, document: {}, redirects: new Map(), redirectEntries: new Map(), revoked: new Set(), diagnostics: [read.diagnostic] };
  }
  return { source, ...checkRoutesText(source.file, read.text, validators) };
}

/** A file's text, read again to place a rare cross-file diagnostic in it. */
function sourceOf(file: string, settings: Settings): SourceFile {
  const read = readSourceText(file, settings.limits.maxManifestBytes);
  return { file, text: "text" in read ? read.text : "" };
}

function addKeysFile(result: ContentCheck, keys: KeysCheck): void {
  if (keys.file === undefined) return;
  result.files.push({ file: keys.file, umid: null });
  result.diagnostics.push(...keys.diagnostics);
}

/** `_keys.json` in `dir` or the nearest folder above it, up to the working directory. */
export async function findKeysFile(dir: string): Promise<string | undefined> {
  const stop = resolve(".");
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, KEYS_FILE);
    if (await stat(candidate).then(() => true, () => false)) return candidate;
    if (at === stop || !at.startsWith(stop) || at === dirname(at)) return undefined;
  }
}

function emptyCheck(): ContentCheck {
  return { files: [], published: new PublishedManifests(), legacy: [], redirects: new Map(), revoked: new Set(), diagnostics: [] };
}

function missingFile(path: string): Diagnostic {
  return { severity: "error", file: displayPath(path), rule: "file/unreadable", message: "file not found" };
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
