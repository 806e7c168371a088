/**
 * Stage 1, Arrive (core §3.1.1): the manifest is read strictly (I-JSON: duplicate names
 * refused, §1.6.3; within the resource limits of §6.3) and held to the structural rules
 * `check` applies, by the same code (manifest-structure.ts). A version without a
 * processing path here is refused (§1.3.1): v0.4, and v0.3 through EXT-T1 §T1.6.4.
 *
 * One structural fault waits for Verify: an unsupported signature profile, which §1.6.5
 * records as `signatureCheck: "unsupported-profile"` rather than as a malformed envelope.
 */
import { decodeUtf8, utf8 } from "../base64url.ts";
import { canonicalMembers, type CanonicalMembers } from "../crypto/jcs.ts";
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import type { Limits } from "./limits.ts";
import { lineColumn, type SourceMap } from "../json/source-map.ts";
import { isJsonMediaType, mediaTypeOf } from "../media-type.ts";
import { structureProblems } from "../validate/manifest-structure.ts";
import { problemWarning } from "./evaluation.ts";
import type { Warning } from "./receipt.ts";
import { quoted } from "../excerpt.ts";

export type Arrival =
  | { ok: true; manifest: Record<string, unknown>; version: "0.4" | "0.3"; members: CanonicalMembers }
  | {
      ok: false;
      manifestId: string | null;
      warnings: Warning[];
      /** Where the values of a manifest given as text are, to place the warnings' pointers. */
      source?: SourceMap;
    };

/** The members whose structural faults are the Verify stage's to report. */
const PROFILE_POINTERS = new Set(["/signature/algorithm", "/signature/canonicalization"]);

export async function arrive(
  input: string | Uint8Array | Record<string, unknown>,
  limits: Limits,
  standardsUrl: string,
): Promise<Arrival> {
  const read = readInput(input, limits);
  if ("warning" in read) return { ok: false, manifestId: null, warnings: [read.warning] };
  const value = read.value;
  const manifestId = isJsonObject(value) && typeof value["@id"] === "string" ? value["@id"] : null;
  const source = read.source && { source: read.source };

  const version = isJsonObject(value) ? value.manifestVersion : undefined;
  if (version === "0.1" || version === "0.2") {
    const message =
      `manifestVersion ${quoted(version)} has no processing path in a v0.4 evaluator ` +
      `(only 0.4, and 0.3 through the EXT-T1 §T1.6.4 compatibility rules)`;
    return {
      ok: false,
      manifestId,
      warnings: [{ code: "um:reason:arrive:unsupported-version", message, pointer: "/manifestVersion" }],
      ...source,
    };
  }
  // The v0.3 validator is loaded only for a v0.3 manifest: most never need it (legacy-v03.ts).
  const legacy = version === "0.3" ? (await import("../validate/legacy-v03.ts")).V03_CHECKS : {};
  const warnings = structureProblems(value, standardsUrl, legacy)
    .filter((p) => !PROFILE_POINTERS.has(p.pointer))
    .map((p) => problemWarning("um:reason:arrive:structure", p));
  if (warnings.length > 0 || !isJsonObject(value)) return { ok: false, manifestId, warnings, ...source };
  try {
    return { ok: true, manifest: value, version: version === "0.3" ? "0.3" : "0.4", members: canonicalMembers(value) };
  } catch (error) {
    // Only a value given as an object can hold what JSON cannot (a lone surrogate, NaN).
    return {
      ok: false,
      manifestId,
      warnings: [{ code: "um:reason:arrive:malformed", message: `not JSON: ${(error as Error).message}` }],
    };
  }
}

/**
 * The warning for a manifest that came over HTTP with a `Content-Type` (null: none) that is
 * not JSON: a resolver answers one as application/ld+json (contract §4.3), and one that
 * says text/html is misconfigured, or is not the resolver it claims to be. Not critical:
 * the body is judged by what it is.
 */
export function mediaTypeWarning(contentType: string | null): Warning | undefined {
  if (isJsonMediaType(mediaTypeOf(contentType))) return undefined;
  const received = contentType === null ? "no Content-Type" : `Content-Type ${quoted(contentType)}`;
  return {
    code: "um:reason:arrive:media-type",
    rule: "resolve/media-type",
    message:
      `the manifest was answered with ${received}, not a JSON media type ` +
      `(application/ld+json, application/json or +json)`,
  };
}

function readInput(
  input: string | Uint8Array | Record<string, unknown>,
  limits: Limits,
): { value: unknown; source?: SourceMap } | { warning: Warning } {
  if (typeof input !== "string" && !(input instanceof Uint8Array)) return { value: input };
  const bytes = typeof input === "string" ? utf8(input).byteLength : input.byteLength;
  if (bytes > limits.maxManifestBytes) {
    return {
      warning: {
        code: "um:reason:arrive:too-large",
        message: `the manifest is larger than the limit of ${limits.maxManifestBytes} bytes (core §6.3)`,
      },
    };
  }
  const decoded = typeof input === "string" ? input : decodeUtf8(input);
  if (decoded === undefined) return { warning: { code: "um:reason:arrive:malformed", message: "not UTF-8 text" } };
  // A byte order mark carries no content (RFC 8259 §8.1 lets a parser ignore it), as for `check`.
  const text = decoded.startsWith("\uFEFF") ? decoded.slice(1) : decoded;
  const parsed = parseJson(text, limits);
  if (parsed.ok) return { value: parsed.value, source: parsed.source };
  const { rule, message, offset } = parsed.problem;
  return { warning: { code: "um:reason:arrive:malformed", message, rule, ...lineColumn(text, offset) } };
}
