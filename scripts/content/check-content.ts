/**
 * The one validator of content, shared by `build` and `check`: every manifest (strict
 * I-JSON within limits, the v0.4 schema, the cross-field rules, the Profile A signature
 * against embedded or pinned keys, freshness), `_keys.json`, `_routes.json`, and the rules
 * across files (one file per UMID, one fate per UMID). It reads and reports; it writes nothing.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Settings } from "../config.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import { verifyProfileA, type PinnedKeys } from "../crypto/profile-a.ts";
import { placeInSource, type Diagnostic, type Severity } from "../diagnostics.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { crossFieldProblems } from "../validate/cross-field.ts";
import { freshnessProblems } from "../validate/freshness.ts";
import { schemaValidators, type SchemaProblem, type SchemaValidators } from "../validate/schema-validator.ts";
import { displayPath, KEYS_FILE, manifestFiles, readSourceText, ROUTES_FILE } from "./files.ts";
import { checkKeys, type KeysCheck } from "./keys.ts";
import { checkRoutesText, type RoutesCheck } from "./routes.ts";
import { diagnostic, parseAndValidate, placed, placeOf, type Parsed } from "./source.ts";

/** Versions older than 0.4 that stored payloads may carry (spec 4.3), checked as legacy. */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(["0.1", "0.2", "0.3"]);

export interface CheckOptions {
  settings: Settings;
  /** The clock for freshness warnings; the structural verdict never reads it. */
  now: Date;
  /** Freshness problems are errors rather than warnings. */
  strict: boolean;
}

export interface ManifestSource {
  file: string;
  text: string;
  umid: string;
  value: Record<string, unknown>;
  /** The manifestVersion of a legacy (pre-0.4) payload. */
  legacyVersion?: string;
}

export interface ContentCheck {
  /** Every file checked, in order, with the UMID it claims (null for none). */
  files: { file: string; umid: string | null }[];
  /** Valid manifests to publish, in file order. */
  published: ManifestSource[];
  /** Valid manifests whose UMID is revoked: not published. */
  withheld: ManifestSource[];
  redirects: Map<string, string>;
  revoked: Set<string>;
  diagnostics: Diagnostic[];
}

/** What checking one manifest needs besides its text. */
export interface ManifestContext extends CheckOptions {
  validators: SchemaValidators;
  pinned: PinnedKeys;
}

/** Everything wrong with one manifest on its own (no cross-file rules). */
export function checkManifestText(file: string, text: string, context: ManifestContext): Parsed & { legacyVersion?: string } {
  const result = parseAndValidate(file, text, context.settings, (value) =>
    legacyVersionOf(value) === undefined ? context.validators.manifest(value) : legacyProblems(value as Record<string, unknown>),
  );
  if (!isJsonObject(result.value)) return result;
  const manifest = result.value;
  const legacyVersion = legacyVersionOf(manifest);
  const problems: [Severity, SchemaProblem[]][] = [
    ["error", legacyVersion === undefined ? crossFieldProblems(manifest) : []],
    ["error", verifyProfileA(manifest, context.pinned)],
    [context.strict ? "error" : "warning", freshnessProblems(manifest, context.now)],
  ];
  const more = problems.flatMap(([severity, list]) => list.map((p) => diagnostic(file, severity, p)));
  placeInSource(text, more);
  result.diagnostics.push(...more);
  return legacyVersion === undefined ? result : { ...result, legacyVersion };
}

function legacyVersionOf(value: unknown): string | undefined {
  return isJsonObject(value) && typeof value.manifestVersion === "string" && LEGACY_VERSIONS.has(value.manifestVersion) ? value.manifestVersion : undefined;
}

/**
 * A legacy payload is checked only as far as its version allows: a JSON object with a
 * non-empty `@id`, whose signature, if it declares Profile A, verifies (checked by the
 * caller, as for v0.4).
 */
function legacyProblems(value: Record<string, unknown>): SchemaProblem[] {
  if (typeof value["@id"] === "string" && value["@id"] !== "") return [];
  return [{ pointer: "@id" in value ? "/@id" : "", rule: "legacy/id", message: "a legacy manifest needs a non-empty string @id" }];
}

/** A content directory: its manifests, `_keys.json`, `_routes.json`, and the rules across them. */
export async function checkContent(dir: string, options: CheckOptions): Promise<ContentCheck> {
  const result = emptyCheck();
  if (!(await isDirectory(dir))) {
    result.diagnostics.push({ severity: "error", file: displayPath(dir), rule: "file/unreadable", message: "no such content directory" });
    result.files.push({ file: displayPath(dir), umid: null });
    return result;
  }
  const validators = schemaValidators(options.settings.contextUrl);
  const keys = await checkKeys(await findKeysFile(dir), options.settings, validators);
  const context: ManifestContext = { ...options, validators, pinned: keys.pinned };
  const checked = await mapConcurrent(await manifestFiles(dir), FILE_CONCURRENCY, (name) => checkManifestFile(join(dir, name), context));

  // One file per UMID. A manifest that failed other checks still claims its @id, so a
  // duplicate is reported even before the first copy is fixed.
  const byUmid = new Map<string, ManifestSource>();
  const valid: ManifestSource[] = [];
  for (const manifest of checked) {
    result.diagnostics.push(...manifest.diagnostics);
    result.files.push({ file: manifest.file, umid: manifest.source?.umid ?? null });
    const source = manifest.source;
    if (source === undefined) continue;
    const first = byUmid.get(source.umid);
    if (first !== undefined) {
      result.diagnostics.push(placed(source, "/@id", "umid/duplicate", `@id ${JSON.stringify(source.umid)} is also the @id of ${placeOf(first, "/@id")}`));
      continue;
    }
    byUmid.set(source.umid, source);
    if (!manifest.diagnostics.some((d) => d.severity === "error")) valid.push(source);
  }
  addKeysFile(result, keys);

  const routesPath = join(dir, ROUTES_FILE);
  const routes = await checkRoutes(routesPath, options.settings, validators, byUmid);
  if (routes !== undefined) {
    result.files.push({ file: displayPath(routesPath), umid: null });
    result.diagnostics.push(...routes.diagnostics);
    result.redirects = routes.redirects;
    result.revoked = routes.revoked;
  }
  result.withheld = valid.filter((m) => result.revoked.has(m.umid));
  for (const m of result.withheld) {
    result.diagnostics.push({ ...placed(m, "/@id", "routes/withheld", `${JSON.stringify(m.umid)} is revoked in ${ROUTES_FILE}, so this manifest is not published`), severity: "warning" });
  }
  result.published = valid.filter((m) => !result.revoked.has(m.umid) && !result.redirects.has(m.umid));
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
    let part: ContentCheck;
    if (await isDirectory(path)) {
      part = await checkContent(path, options);
    } else if (basename(path) === KEYS_FILE) {
      part = emptyCheck();
      addKeysFile(part, await checkKeys(path, options.settings, validators));
    } else if (basename(path) === ROUTES_FILE) {
      part = emptyCheck();
      const routes = await checkRoutes(path, options.settings, validators, new Map());
      part.files.push({ file: displayPath(path), umid: null });
      part.diagnostics.push(...(routes?.diagnostics ?? [missingFile(path)]));
    } else {
      part = emptyCheck();
      const keys = await checkKeys(await findKeysFile(dirname(path)), options.settings, validators);
      const manifest = await checkManifestFile(path, { ...options, validators, pinned: keys.pinned });
      part.files.push({ file: manifest.file, umid: manifest.source?.umid ?? null });
      part.diagnostics.push(...manifest.diagnostics);
    }
    result.files.push(...part.files);
    result.diagnostics.push(...part.diagnostics);
  }
  return result;
}

interface CheckedManifest {
  file: string;
  diagnostics: Diagnostic[];
  /** Present when the file holds an object with a non-empty string @id. */
  source?: ManifestSource;
}

async function checkManifestFile(path: string, context: ManifestContext): Promise<CheckedManifest> {
  const file = displayPath(path);
  const read = await readSourceText(path, context.settings.limits.maxManifestBytes);
  if ("diagnostic" in read) return { file, diagnostics: [read.diagnostic] };
  const { value, diagnostics, legacyVersion } = checkManifestText(file, read.text, context);
  if (!isJsonObject(value) || typeof value["@id"] !== "string" || value["@id"] === "") return { file, diagnostics };
  const source: ManifestSource = { file, text: read.text, umid: value["@id"], value };
  if (legacyVersion !== undefined) source.legacyVersion = legacyVersion;
  return { file, diagnostics, source };
}

/** `_routes.json` on its own and against the manifests; undefined when there is none. */
async function checkRoutes(path: string, settings: Settings, validators: SchemaValidators, manifests: Map<string, ManifestSource>): Promise<RoutesCheck | undefined> {
  const read = await readSourceText(path, settings.limits.maxManifestBytes);
  if ("diagnostic" in read) return read.missing ? undefined : { document: {}, redirects: new Map(), revoked: new Set(), diagnostics: [read.diagnostic] };
  return checkRoutesText(displayPath(path), read.text, settings, validators, manifests);
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
  return { files: [], published: [], withheld: [], redirects: new Map(), revoked: new Set(), diagnostics: [] };
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
