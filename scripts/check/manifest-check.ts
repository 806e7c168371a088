/**
 * One manifest file, checked on its own (no cross-file rules): strict I-JSON within the
 * limits, the v0.4 schema and cross-field rules (or its own version's rules, for a legacy
 * payload), the Profile A signature against the pinned or embedded key (or, for a payload
 * whose version defines no verifiable signature, the publisher's explicit opt-in), no
 * private key, and freshness. A valid manifest also yields its body (the JCS canonical
 * form) and that body's SHA-256; a failing one that claims a UMID, that digest alone.
 *
 * With the verification cache (scripts/cache/), a file whose key is among the usable
 * entries' is not checked again: its result is the entry's (`recall`), with freshness
 * judged anew. Every other file is checked and yields the entry to keep.
 */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { resolve } from "node:path";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import type { Settings } from "../config.ts";
import {
  cacheKey,
  keyPrefix,
  serializedVerdict,
  type CachedVerdict,
  PLACED_MEMBERS,
  type KeptStatusRef,
  type KeptPlaces,
  type Alias,
} from "../cache/verification-cache.ts";
import { aliasOf, type IdentitySource } from "../cache/file-identity.ts";
import { KEY_KINDS } from "../cache/known-keys.ts";
import type { KnownKeys } from "../cache/known-keys.ts";
import { found, verdictReads, type VerdictReads } from "../cache/verdict-reads.ts";
import { joinMembers, type CanonicalMembers } from "../../core/crypto/jcs.ts";
import { parseCanonical } from "../../core/crypto/canonical-parse.ts";
import type { KeyPins } from "../../core/crypto/profile-a.ts";
import { verifyProfileA } from "../crypto/profile-a.ts";
import { hasErrors, placeInSource, type Diagnostic, type Severity } from "../report/diagnostics.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { Place, SourceMap } from "../../core/json/source-map.ts";
import { instant } from "../../core/date-time.ts";
import { freshnessProblems } from "../../core/validate/freshness.ts";
import { legacyVersionOf, SIGNED_LEGACY_VERSIONS } from "../../core/validate/legacy.ts";
import { structureProblems } from "../../core/validate/manifest-structure.ts";
import { statusRefProblems } from "../../core/validate/status-ref.ts";
import { shellWord } from "../report/fix-hints.ts";
import { PUBLISHED_LEGACY_CHECKS } from "../validate/legacy-schemas.ts";
import type { Problem } from "../../core/validate/problem.ts";
import { decodeSource, displayPath, manifestByteLimit, readSourceBytes, type SourceBytes } from "../read/files.ts";
import type { CheckedManifest } from "./checked-manifest.ts";
import { livenessFloorProblems } from "./liveness-floor.ts";
import { privateKeyProblem } from "./private-keys.ts";
import { problemDiagnostic, validated, type Parsed } from "../read/source.ts";
import { optInAdvice, type UnsignedOptIns } from "./unsigned.ts";
import { appendAll } from "../../core/append-all.ts";

export interface CheckOptions {
  settings: Settings;
  /** The clock for freshness warnings; the structural verdict never reads it. */
  now: Date;
  /** Freshness problems are errors rather than warnings. */
  strict: boolean;
}

/** What checking one manifest needs besides its text. */
export interface ManifestContext extends CheckOptions {
  /** The content root's `_keys.json`; undefined when there is none. */
  pins: KeyPins | undefined;
  unsigned: UnsignedOptIns;
}

/**
 * The cache as a check consults it: the scope of its keys, their table, which of them may be used, and how this
 * run knows files it does not read (the alias it keeps for each file it reads).
 */
export interface CacheLookup {
  scope: string;
  known: KnownKeys;
  usable: Uint8Array;
  source: IdentitySource;
}

/**
 * A file whose key is a usable entry's, at `position` in their table: its result is that entry's (`recall`). `alias`:
 * the alias of the bytes read, for an entry found by reading them.
 */
export interface Recalled {
  position: number;
  alias?: Alias;
}

/** The entry's result for its file, displayed as `file`, as checking it would give (freshness judged at `now`). */
export function recall(entry: CachedVerdict, file: string, context: ManifestContext): CheckedManifest {
  const freshness = freshnessDiagnostics(file, entry.times, context);
  // Placed where the check that made the entry found them: the file is not read again.
  for (const d of freshness) Object.assign(d, placeKept(entry.places, d.pointer!));
  const diagnostics = [...entry.diagnostics.map((d) => ({ ...d, file })), ...freshness];
  const umidAt = entry.umid === null ? null : (placeKept(entry.places, "/@id") ?? null);
  const { statusRef } = entry;
  const checked = { file, diagnostics, umid: entry.umid, umidAt, statusRef, recalled: true, cacheEntry: null };
  const digest = entry.body === null ? null : Buffer.from(entry.body.digest, "hex");
  const issuedAt = entry.issuedAt ?? NaN;
  if (entry.umid === null || entry.body === null || hasErrors(diagnostics))
    return { state: "invalid", ...checked, digest: entry.umid === null ? null : digest, issuedAt };
  return {
    state: "valid",
    ...checked,
    umid: entry.umid,
    body: { kind: "stored", stored: entry.body },
    digest: digest!,
    issuedAt,
    legacyVersion: entry.legacy,
  };
}

/** `cache.name`: the file's name in its content root, which its key includes. */
export function checkManifestFile(
  path: string,
  context: ManifestContext,
  cache?: CacheLookup & { name: string },
): CheckedManifest | Recalled {
  const file = displayPath(path);
  // Read once: the bytes looked up are the bytes checked.
  const read = readSourceBytes(path, manifestByteLimit(context.settings.limits), file);
  const decoded = "diagnostic" in read ? read : decodeSource(read.bytes, file);
  if ("diagnostic" in decoded)
    return {
      state: "invalid",
      file,
      diagnostics: [decoded.diagnostic],
      umid: null,
      umidAt: null,
      statusRef: null,
      recalled: false,
      cacheEntry: null,
      digest: null,
      issuedAt: NaN,
    };
  const { bytes, stat } = read as Extract<SourceBytes, { bytes: Uint8Array }>;
  const key = cache && cacheKey(keyPrefix(cache.scope, cache.name), bytes);
  const alias = cache && aliasFor(cache, bytes, stat);
  const position = key === undefined ? -1 : cache!.known.positionOf(key);
  if (position >= 0 && cache!.usable[position] === 1) return alias === undefined ? { position } : { position, alias };
  const { value, map, diagnostics, legacyVersion, canonical, freshness, reads } = checkManifestText(
    file,
    decoded.text,
    context,
    path,
  );
  const umid = isJsonObject(value) && typeof value["@id"] === "string" && value["@id"] !== "" ? value["@id"] : null;
  // The body is the canonical form (docs/output-format.md, "Bodies and ETags"). Its digest is kept in the cache
  // entry whatever the verdict: a later run judging the file fresh can publish it, and `check --base` compares
  // a failing manifest's digest too.
  const body = umid !== null && canonical !== undefined ? utf8(joinMembers(canonical)) : undefined;
  const digest = body && sha256(body);
  const issuedAt = isJsonObject(value) ? instant(value.issuedAt) : undefined;
  const statusRef = statusRefOf(value, map);
  const cacheEntry =
    key === undefined
      ? null
      : {
          key,
          alias,
          verdict: serializedVerdict({
            umid,
            body:
              digest === undefined ? null : { digest: Buffer.from(digest).toString("hex"), bytes: body!.byteLength },
            issuedAt: issuedAt ?? null,
            times: isJsonObject(value) ? timesOf(value) : {},
            places: placesOf(value, map),
            legacy: legacyVersion ?? null,
            reads,
            found: found(reads, context),
            diagnostics: diagnostics.filter((d) => !freshness.includes(d)).map(({ file: _, ...kept }) => kept),
            statusRef,
          }),
        };
  const umidAt = umid === null ? null : map!.place("/@id");
  const checked = { file, diagnostics, umid, umidAt, statusRef, recalled: false, cacheEntry };
  if (umid === null || body === undefined || hasErrors(diagnostics))
    return { state: "invalid", ...checked, digest: digest ?? null, issuedAt: issuedAt ?? NaN };
  return {
    state: "valid",
    ...checked,
    umid,
    body: { kind: "bytes", bytes: body },
    digest: digest!,
    issuedAt: issuedAt ?? NaN,
    legacyVersion: legacyVersion ?? null,
  };
}

/**
 * Everything wrong with one manifest's text on its own; for an object, also its canonical
 * members (canonicalized once, for both the signature and the body). `path` is the file's
 * path, by which an unsigned payload is opted in (default: `file`).
 */
export function checkManifestText(
  file: string,
  text: string,
  context: ManifestContext,
  path = file,
): Parsed & { legacyVersion?: string; canonical?: CanonicalMembers; freshness: Diagnostic[]; reads: VerdictReads } {
  // Parsed and canonicalized at once: the body and the signed bytes are joined from the members.
  const parsed = parseCanonical(text, context.settings.limits);
  const result = validated(file, text, parsed, (value) =>
    structureProblems(value, context.settings.standardsUrl, PUBLISHED_LEGACY_CHECKS),
  );
  const privateKey = privateKeyProblem(file, text);
  if (privateKey !== undefined) result.diagnostics.push(privateKey);
  if (!isJsonObject(result.value)) return { ...result, freshness: [], reads: {} };
  const manifest = result.value;
  const legacyVersion = legacyVersionOf(manifest);
  // Given for every object, and the manifest is one.
  const canonical = (parsed as Extract<typeof parsed, { ok: true }>).members!;
  const verifiable = legacyVersion === undefined || SIGNED_LEGACY_VERSIONS.has(legacyVersion);
  const problems: [Severity, Problem[]][] = [
    [
      "error",
      verifiable ? verifyProfileA(manifest, context.pins, canonical) : optInProblems(path, canonical, context.unsigned),
    ],
    ["error", statusRefProblems(manifest, context.settings.resolverUrl)],
    [
      "warning",
      legacyVersion === undefined ? missingStatusRefProblems(manifest, file, context.settings.resolverUrl) : [],
    ],
    ["warning", livenessFloorProblems(manifest)],
  ];
  const freshness = freshnessDiagnostics(file, manifest, context);
  const more = [
    ...problems.flatMap(([severity, list]) => list.map((p) => problemDiagnostic(file, severity, p))),
    ...freshness,
  ];
  placeInSource(result.map!, more);
  appendAll(result.diagnostics, more);
  return {
    ...result,
    canonical,
    freshness,
    reads: verdictReads(manifest, verifiable, path),
    ...(legacyVersion !== undefined && { legacyVersion }),
  };
}

/**
 * A signed v0.4 manifest without a statusRef, where the project has a resolver to give it one: its revocation or
 * suspension would never reach a relying party. The message gives the one command that adds it, for `file` as the
 * run names it. Without a resolver URL there is no statusRef to give yet, and `sign` says so instead.
 */
function missingStatusRefProblems(manifest: Record<string, unknown>, file: string, resolverUrl: string): Problem[] {
  if (resolverUrl === "" || !isJsonObject(manifest.signature) || manifest.signature.statusRef !== undefined) return [];
  return [
    {
      pointer: "/signature",
      rule: "signature/status-ref-missing",
      message:
        "has no statusRef: its revocation or suspension never reaches those who hold it; run " +
        `manifest-resolver sign ${shellWord(file)}`,
    },
  ];
}

/** The alias this run keeps for a file it read (`bytes`, from a descriptor whose status was `stat`), if any. */
function aliasFor(cache: CacheLookup & { name: string }, bytes: Uint8Array, stat: BigIntStats): Alias | undefined {
  const key = aliasOf(cache.source, cache.scope, cache.name, bytes, stat);
  return key && { key, kind: cache.source === "stat" ? KEY_KINDS.stat : KEY_KINDS.git };
}

/** The problems that depend on the clock: never cached (see freshness.ts). */
function freshnessDiagnostics(file: string, manifest: Record<string, unknown>, context: CheckOptions): Diagnostic[] {
  return freshnessProblems(manifest, context.now).map((p) =>
    problemDiagnostic(file, context.strict ? "error" : "warning", p),
  );
}

/** What freshness reads of a manifest, kept in a cache entry. */
function timesOf(manifest: Record<string, unknown>): CachedVerdict["times"] {
  return Object.fromEntries(
    ["issuedAt", "expiresAt"].filter((name) => Object.hasOwn(manifest, name)).map((name) => [name, manifest[name]]),
  );
}

/** Where the PLACED_MEMBERS of the manifest `value` are, kept in a cache entry. */
function placesOf(value: unknown, map: SourceMap | undefined): KeptPlaces {
  return PLACED_MEMBERS.flatMap((pointer) => {
    if (map === undefined || !isJsonObject(value) || !Object.hasOwn(value, pointer.slice(1))) return [0, 0];
    const { line, column } = map.place(pointer);
    return [line, column];
  });
}

/** `signature.statusRef` when it is a string, with its place. */
function statusRefOf(value: unknown, map: SourceMap | undefined): KeptStatusRef | null {
  const ref = isJsonObject(value) && isJsonObject(value.signature) ? value.signature.statusRef : undefined;
  if (typeof ref !== "string" || map === undefined) return null;
  return { ref, ...map.place("/signature/statusRef") };
}

/** The place of `pointer` an entry kept, if it is one of PLACED_MEMBERS the file has. */
function placeKept(places: KeptPlaces, pointer: string): Place | undefined {
  const at = 2 * PLACED_MEMBERS.indexOf(pointer);
  const line = places[at] ?? 0;
  return at >= 0 && line > 0 ? { line, column: places[at + 1]! } : undefined;
}

/** A payload whose version defines no verifiable signature: published only if opted in, as it is now. */
function optInProblems(path: string, canonical: CanonicalMembers, optIns: UnsignedOptIns): Problem[] {
  const digest = `sha256-${encodeBase64url(sha256(utf8(joinMembers(canonical))))}`;
  const optIn = optIns.entries.get(resolve(path));
  if (optIn === undefined) {
    const message =
      `manifestVersion "0.1" defines no verifiable signature, so nothing shows who ` +
      `wrote this payload; ${optInAdvice(path, digest, optIns)}`;
    return [{ pointer: "/manifestVersion", rule: "legacy/unsigned", message }];
  }
  if (optIn.digest === undefined || optIn.digest === digest) return [];
  const message =
    `was opted in unsigned at ${optIn.place} as ${optIn.digest}, but its canonical ` +
    `form is now ${digest}: review what changed, then update that entry`;
  return [{ pointer: "", rule: "legacy/unsigned-changed", message }];
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash("sha256").update(bytes).digest();
}
