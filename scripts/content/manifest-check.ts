/**
 * One manifest file, checked on its own (no cross-file rules): strict I-JSON within the
 * limits, the v0.4 schema and cross-field rules (or the legacy checks), the Profile A
 * signature against embedded or pinned keys, and freshness. For the build, a valid
 * manifest also yields its body (the JCS canonical form) and that body's ETag.
 */
import { createHash } from "node:crypto";
import { utf8 } from "../../edge/base64url.ts";
import { formatEtag } from "../../edge/etag.ts";
import type { Settings } from "../config.ts";
import { canonicalMembers, joinMembers, type CanonicalMembers } from "../crypto/jcs.ts";
import { verifyProfileA, type PinnedKeys } from "../crypto/profile-a.ts";
import { hasErrors, placeInSource, type Diagnostic, type Severity } from "../diagnostics.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { crossFieldProblems } from "../validate/cross-field.ts";
import { freshnessProblems } from "../validate/freshness.ts";
import type { SchemaProblem, SchemaValidators } from "../validate/schema-validator.ts";
import { displayPath, readSourceText } from "./files.ts";
import { diagnostic, parseAndValidate, type Parsed } from "./source.ts";

/** Versions older than 0.4 that stored payloads may carry (spec 4.3), checked as legacy. */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set(["0.1", "0.2", "0.3"]);

export interface CheckOptions {
  settings: Settings;
  /** The clock for freshness warnings; the structural verdict never reads it. */
  now: Date;
  /** Freshness problems are errors rather than warnings. */
  strict: boolean;
}

/** What checking one manifest needs besides its text. */
export interface ManifestContext extends CheckOptions {
  validators: SchemaValidators;
  pinned: PinnedKeys;
}

export interface CheckedManifest {
  file: string;
  diagnostics: Diagnostic[];
  /** The @id, when the file holds an object with a non-empty string @id. */
  umid?: string;
  legacyVersion?: string;
  /** For a valid manifest, when bodies were asked for: what a 200 carries, and its ETag. */
  body?: Uint8Array;
  etag?: string;
}

export function checkManifestFile(path: string, context: ManifestContext, withBody: boolean): CheckedManifest {
  const file = displayPath(path);
  const read = readSourceText(path, context.settings.limits.maxManifestBytes);
  if ("diagnostic" in read) return { file, diagnostics: [read.diagnostic] };
  const { value, diagnostics, legacyVersion, canonical } = checkManifestText(file, read.text, context);
  const result: CheckedManifest = { file, diagnostics };
  if (!isJsonObject(value) || typeof value["@id"] !== "string" || value["@id"] === "") return result;
  result.umid = value["@id"];
  if (legacyVersion !== undefined) result.legacyVersion = legacyVersion;
  if (withBody && canonical !== undefined && !hasErrors(diagnostics)) {
    // The body is the canonical form: see "What the build writes" in the README.
    result.body = utf8(joinMembers(canonical));
    result.etag = formatEtag(createHash("sha256").update(result.body).digest());
  }
  return result;
}

/**
 * Everything wrong with one manifest's text on its own; for an object, also its canonical
 * members (canonicalized once, for both the signature and the body).
 */
export function checkManifestText(file: string, text: string, context: ManifestContext): Parsed & { legacyVersion?: string; canonical?: CanonicalMembers } {
  const result = parseAndValidate(file, text, context.settings.limits, (value) =>
    legacyVersionOf(value) === undefined ? context.validators.manifest(value) : legacyProblems(value as Record<string, unknown>),
  );
  if (!isJsonObject(result.value)) return result;
  const manifest = result.value;
  const legacyVersion = legacyVersionOf(manifest);
  const canonical = canonicalMembers(manifest);
  const problems: [Severity, SchemaProblem[]][] = [
    ["error", legacyVersion === undefined ? crossFieldProblems(manifest) : []],
    ["error", verifyProfileA(manifest, context.pinned, canonical)],
    [context.strict ? "error" : "warning", freshnessProblems(manifest, context.now)],
  ];
  const more = problems.flatMap(([severity, list]) => list.map((p) => diagnostic(file, severity, p)));
  placeInSource(text, more);
  result.diagnostics.push(...more);
  return { ...result, canonical, ...(legacyVersion !== undefined && { legacyVersion }) };
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
