/**
 * `manifest-resolver evaluate`: the relying party's six-stage evaluation of one manifest
 * file (core/evaluate/), its receipt on stdout. The same module runs in any runtime; this
 * is its Node front end: files, flags, exit statuses, and the diagnostics a person reads.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import { readFully } from "../read/read-fully.ts";
import { placeName } from "../../core/evaluate/evaluation.ts";
import { ContextError, type EvaluationContext, type Receipt } from "../../core/evaluate/index.ts";
import { evaluateWithSourceMap } from "../../core/evaluate/evaluate.ts";
import type { SourceMap } from "../../core/json/source-map.ts";
import { excerpt } from "../../core/excerpt.ts";
import { parseJson } from "../../core/json/strict-json.ts";
import { isDateTime } from "../../core/validate/cross-field.ts";
import { settingsFromEnv } from "../config.ts";
import { formatDiagnostic, printable, printableFile, type Diagnostic } from "../report/diagnostics.ts";
import { EXIT_FAILED, EXIT_OK, UsageError, type Command } from "./command.ts";
import { KEYS_HELP, keysOption } from "./keys-option.ts";

export const evaluateCommand: Command = {
  name: "evaluate",
  help: `Usage: manifest-resolver evaluate FILE [--context JSON] [--now DATE-TIME] [--keys FILE] [--json]

Runs the six-stage evaluation of Universal Manifest v0.4 (Arrive, Verify, Project,
Consent, Compose, Receipt) on FILE and prints the structured receipt on stdout: the
outcome, and every check with its result (README, "For relying parties").

Options:
  --context JSON    the evaluation context, a JSON object with any of: now,
                    maxSupportedTrustTier, verifierChallenge, verifierAudience,
                    presentedAssuranceClass, intendedScope, intendedPurpose,
                    omitProcessedAt (what a member does, and its fail-closed default:
                    the README). Default {}: the wall clock, Tier 0, no challenge.
  --now DATE-TIME   the clock (RFC 3339), overriding the context's "now"
${KEYS_HELP}
  --json            the receipt on one line (default: indented)

A manifest that cannot be read as one (not JSON, a structural fault) also gets its
problems on stderr as 'file:line:col - error RULE: message'; a short summary follows
there when stderr is a terminal.

Environment: UM_STANDARDS_URL, UM_MAX_MANIFEST_BYTES, UM_MAX_DEPTH, UM_MAX_ARRAY_ITEMS,
as for 'manifest-resolver build --help'.

Exit status: 0 accepted (also with warnings, or partially), 1 rejected, 2 usage error.

Example:
  manifest-resolver evaluate content/people/alice/profile.jsonld --context '{"verifierChallenge":"n-0451","verifierAudience":"did:web:venue.example"}'`,
  options: {
    context: { type: "string" },
    now: { type: "string" },
    keys: { type: "string" },
    json: { type: "boolean" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0 ? "evaluate needs a FILE" : `evaluate takes one FILE, not ${positionals.length}`,
      );
    const file = positionals[0]!;
    const context = contextOption(values.context as string | undefined, values.now as string | undefined);
    const settings = settingsFromEnv();
    const keys = keysOption(values.keys as string | undefined, settings);
    const bytes = readAtMost(file, settings.limits.maxManifestBytes + 1);
    let evaluated: { receipt: Receipt; source?: SourceMap };
    try {
      evaluated = await evaluateWithSourceMap(bytes, context, {
        standardsUrl: settings.standardsUrl,
        limits: settings.limits,
        ...(keys !== undefined && { keys }),
      });
    } catch (error) {
      if (error instanceof ContextError) throw new UsageError(`--context: ${error.message}`);
      throw error;
    }
    const { receipt, source } = evaluated;
    printReceipt(receipt, values.json === true);
    for (const diagnostic of diagnostics(file, source, receipt)) console.error(formatDiagnostic(diagnostic));
    if (process.stderr.isTTY) console.error(summary(file, receipt));
    return receipt.outcome === "rejected" ? EXIT_FAILED : EXIT_OK;
  },
};

/** The file's first `max` bytes: enough to judge it, without loading a file of any size. */
function readAtMost(file: string, max: number): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    return readFully(fd, Math.min(fstatSync(fd).size, max));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The receipt on stdout: indented, or on one line. */
export function printReceipt(receipt: Receipt, oneLine: boolean): void {
  // Line by line: JSON escapes the line breaks inside values, so each line is one of ours.
  const text = oneLine ? JSON.stringify(receipt) : JSON.stringify(receipt, null, 2);
  console.log(text.split("\n").map(printable).join("\n"));
}

/** The evaluation context of `--context JSON` and `--now DATE-TIME`, the latter winning; usage errors name the flag. */
export function contextOption(text: string | undefined, now: string | undefined): EvaluationContext {
  let context: unknown = {};
  if (text !== undefined) {
    // User input, read as strictly as a manifest and within the same limits: no nesting deep enough to exhaust the stack.
    const parsed = parseJson(text, settingsFromEnv().limits);
    if (!parsed.ok) {
      const { rule, message, offset } = parsed.problem;
      throw new UsageError(
        `--context ${rule.startsWith("limits/") ? "is too large" : "is not JSON"}: ${message} (at character ${offset + 1})`,
      );
    }
    if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value))
      throw new UsageError("--context must be a JSON object");
    context = parsed.value;
  }
  if (now !== undefined && !isDateTime(now))
    throw new UsageError(`--now must be an RFC 3339 date-time such as 2026-06-01T00:00:00Z, not '${excerpt(now)}'`);
  return { ...(context as EvaluationContext), ...(now !== undefined && { now }) };
}

/** The problems that kept the manifest from being read, placed in the file (`source`: where its values are, if it parsed). */
function diagnostics(file: string, source: SourceMap | undefined, receipt: Receipt): Diagnostic[] {
  const arrival = receipt.warnings.filter((w) => w.code.startsWith("um:reason:arrive:"));
  return arrival.map((w) => {
    const place =
      w.line !== undefined
        ? { line: w.line, column: w.column! }
        : w.pointer !== undefined
          ? source?.place(w.pointer)
          : undefined;
    // A structural warning's message starts with its place, which the diagnostic prints last.
    const prefix = w.pointer === undefined ? "" : `${placeName(w.pointer)}: `;
    const message = w.message.startsWith(prefix) ? w.message.slice(prefix.length) : w.message;
    return {
      severity: "error",
      file,
      rule: w.rule ?? w.code.slice("um:reason:".length),
      message,
      ...(w.pointer !== undefined && { pointer: w.pointer }),
      ...place,
    };
  });
}

/** A few lines for a person about what `file` (or a URL) held: the outcome, the checks, and why it is not plainly accepted. */
export function summary(file: string, r: Receipt): string {
  const facets =
    r.facetStatuses.length === 0
      ? ""
      : `; ${r.facetStatuses.filter((f) => f.status === "processed").length} of ${r.facetStatuses.length} facets processed`;
  const notes = [
    ...r.warnings.map((w) => w.message),
    ...r.facetStatuses
      .filter((f) => f.status !== "processed")
      .map((f) => `facet ${excerpt(f.facetId)}: ${f.status}${f.reason ? ` (${f.reason})` : ""}`),
    ...r.claimStatuses
      .filter((c) => c.status === "trustTierUnsupported" || c.status === "failed")
      .map((c) => `claim ${excerpt(c.claimRef)}: ${c.status}${c.reason ? ` (${c.reason})` : ""}`),
  ];
  const shown = notes.slice(0, 3).map((note) => `  ${note}`);
  if (notes.length > 3) shown.push(`  … and ${notes.length - 3} more in the receipt`);
  return [
    `${printableFile(file)}: ${r.outcome} (signature ${r.signatureCheck}, key ${r.keyRefResolution}, freshness ${r.freshnessCheck}, revocation ${r.revocationStatus}${facets})`,
    ...shown,
  ]
    .map(printable)
    .join("\n");
}
