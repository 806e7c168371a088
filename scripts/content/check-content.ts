/**
 * The one validator of a content directory: every manifest (strict JSON, the v0.4 schema,
 * the Profile A signature), `_routes.json`, and the rules across files (one file per UMID,
 * one fate per UMID). It reads and reports; it writes nothing.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import { verifyProfileA } from "../crypto/profile-a.ts";
import { placeInSource, sourceLocator, type Diagnostic } from "../diagnostics.ts";
import { lineColumn, parseJson } from "../json/strict-json.ts";
import { schemaValidators, type SchemaValidators } from "../validate/schema-validator.ts";
import { displayPath, manifestFiles, readSourceText, ROUTES_FILE } from "./files.ts";

export interface ManifestSource {
  file: string;
  text: string;
  umid: string;
  value: Record<string, unknown>;
}

export interface ContentCheck {
  /** Valid manifests to publish, in file order. */
  published: ManifestSource[];
  /** Valid manifests whose UMID is revoked: not published. */
  withheld: ManifestSource[];
  redirects: Map<string, string>;
  revoked: Set<string>;
  diagnostics: Diagnostic[];
}

export interface CheckOptions {
  contextUrl: string;
}

type Parsed = { text: string; value: unknown; diagnostics: Diagnostic[] };

/** Strict JSON, then the schema; positions are filled in for every problem. */
function parseAndValidate(file: string, text: string, validate: (value: unknown) => { pointer: string; rule: string; message: string }[]): Parsed {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { rule, message, offset } = parsed.problem;
    return { text, value: undefined, diagnostics: [{ severity: "error", file, rule, message, ...lineColumn(text, offset) }] };
  }
  const diagnostics: Diagnostic[] = validate(parsed.value).map((p) => ({ severity: "error", file, ...p }));
  return { text, value: parsed.value, diagnostics };
}

/** Everything wrong with one manifest's text, on its own (no cross-file rules). */
export function checkManifestText(file: string, text: string, validators: SchemaValidators): Parsed {
  const result = parseAndValidate(file, text, validators.manifest);
  if (isObject(result.value)) {
    for (const p of verifyProfileA(result.value)) result.diagnostics.push({ severity: "error", file, ...p });
  }
  placeInSource(text, result.diagnostics);
  return result;
}

export async function checkContent(dir: string, options: CheckOptions): Promise<ContentCheck> {
  const validators = schemaValidators(options.contextUrl);
  const diagnostics: Diagnostic[] = [];
  const report = (d: Diagnostic) => diagnostics.push(d);
  if (!(await isDirectory(dir))) {
    report({ severity: "error", file: displayPath(dir), rule: "content/missing", message: "no such content directory" });
    return { published: [], withheld: [], redirects: new Map(), revoked: new Set(), diagnostics };
  }

  const files = await manifestFiles(dir);
  const checked = await mapConcurrent(files, FILE_CONCURRENCY, async (name) => {
    const path = join(dir, name);
    const source = await readSourceText(path);
    if ("diagnostic" in source) return { file: displayPath(path), diagnostic: source.diagnostic };
    return { file: displayPath(path), ...checkManifestText(displayPath(path), source.text, validators) };
  });

  // One file per UMID. A manifest that failed other checks still claims its @id, so a
  // duplicate is reported even before the first copy is fixed.
  const byUmid = new Map<string, ManifestSource>();
  const valid: ManifestSource[] = [];
  for (const result of checked) {
    if ("diagnostic" in result) {
      report(result.diagnostic);
      continue;
    }
    result.diagnostics.forEach(report);
    const value = result.value;
    if (!isObject(value) || typeof value["@id"] !== "string" || value["@id"] === "") continue;
    const source: ManifestSource = { file: result.file, text: result.text, umid: value["@id"], value };
    const first = byUmid.get(source.umid);
    if (first !== undefined) {
      report(placed(source, "/@id", "umid/duplicate", `@id ${JSON.stringify(source.umid)} is also the @id of ${placeOf(first, "/@id")}`));
      continue;
    }
    byUmid.set(source.umid, source);
    if (result.diagnostics.length === 0) valid.push(source);
  }

  const routes = await checkRoutes(join(dir, ROUTES_FILE), validators, byUmid, report);
  const withheld = valid.filter((m) => routes.revoked.has(m.umid));
  for (const m of withheld) {
    report({ ...placed(m, "/@id", "routes/withheld", `${JSON.stringify(m.umid)} is revoked in ${ROUTES_FILE}, so this manifest is not published`), severity: "warning" });
  }
  return {
    published: valid.filter((m) => !routes.revoked.has(m.umid) && !routes.redirects.has(m.umid)),
    withheld,
    redirects: routes.redirects,
    revoked: routes.revoked,
    diagnostics,
  };
}

interface RoutesFile {
  redirects?: { umid: string; location: string }[];
  revoked?: { umid: string }[];
}

async function checkRoutes(
  path: string,
  validators: SchemaValidators,
  manifests: Map<string, ManifestSource>,
  report: (d: Diagnostic) => void,
): Promise<{ redirects: Map<string, string>; revoked: Set<string> }> {
  const redirects = new Map<string, string>();
  const revoked = new Set<string>();
  const source = await readSourceText(path);
  if ("diagnostic" in source) {
    if (!source.missing) report(source.diagnostic);
    return { redirects, revoked };
  }
  const file = displayPath(path);
  const parsed = parseAndValidate(file, source.text, validators.routes);
  placeInSource(source.text, parsed.diagnostics);
  parsed.diagnostics.forEach(report);
  // Entries are still checked against each other when others are malformed, so that one
  // run lists every problem; a malformed entry itself is skipped.
  const routes = (isObject(parsed.value) ? parsed.value : {}) as RoutesFile;
  const routesSource = { file, text: source.text };
  // One fate per UMID: listed once, and never both revoked and redirected.
  const firstEntry = new Map<string, { pointer: string; fate: "revoked" | "redirected" }>();
  const claim = (umid: string, pointer: string, fate: "revoked" | "redirected"): boolean => {
    const first = firstEntry.get(umid);
    if (first !== undefined) {
      const rule = first.fate === fate ? "routes/duplicate" : "routes/conflict";
      report(placed(routesSource, pointer, rule, `UMID ${JSON.stringify(umid)} is already ${first.fate} at ${placeOf(routesSource, first.pointer)}`));
      return false;
    }
    firstEntry.set(umid, { pointer, fate });
    return true;
  };

  for (const [{ umid }, i] of namedEntries(routes.revoked)) {
    if (claim(umid, `/revoked/${i}/umid`, "revoked")) revoked.add(umid);
  }
  for (const [{ umid, location }, i] of namedEntries(routes.redirects)) {
    const pointer = `/redirects/${i}/umid`;
    if (!claim(umid, pointer, "redirected")) continue;
    const manifest = manifests.get(umid);
    if (manifest !== undefined) {
      report(placed(routesSource, pointer, "routes/conflict", `UMID ${JSON.stringify(umid)} is redirected here and published by ${placeOf(manifest, "/@id")}; remove one of them`));
      continue;
    }
    redirects.set(umid, location);
  }
  return { redirects, revoked };
}

/** The entries of a routes list that at least name a UMID, with their indexes. */
function namedEntries<T extends { umid: string }>(list: T[] | undefined): [T, number][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, i): [T, number][] => (isObject(entry) && typeof entry.umid === "string" && entry.umid !== "" ? [[entry, i]] : []));
}

function placed(source: { file: string; text: string }, pointer: string, rule: string, message: string): Diagnostic {
  return { severity: "error", file: source.file, rule, message, pointer, ...sourceLocator(source.text)(pointer) };
}

function placeOf(source: { file: string; text: string }, pointer: string): string {
  const { line, column } = sourceLocator(source.text)(pointer);
  return `${source.file}:${line}:${column}`;
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
