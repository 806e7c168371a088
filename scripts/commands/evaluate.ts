/**
 * `manifest-resolver evaluate`: the relying party's six-stage evaluation of one manifest
 * file (core/evaluate/), its receipt on stdout. The same module runs in any runtime; this
 * is its Node front end: files, flags, exit statuses, and the diagnostics a person reads.
 */
import { httpCacheDir, offlineChosen } from "./deprecated-spelling.ts";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { manifestId, type OfflineProof, verifyOfflineProof } from "../../core/client/offline-proof.ts";
import { logRefusal } from "../../core/client/log-refusal.ts";
import { logPolicyOption } from "./log-policy-option.ts";
import { guardedCache } from "../../core/http/http-cache.ts";
import { fileCache } from "../client/file-cache.ts";
import { readFully } from "../read/read-fully.ts";
import { placeName } from "../../core/evaluate/evaluation.ts";
import { ContextError, resolveContext, type EvaluationContext, type Receipt } from "../../core/evaluate/index.ts";
import { evaluateWithSourceMap } from "../../core/evaluate/evaluate.ts";
import type { SourceMap } from "../../core/json/source-map.ts";
import { excerpt } from "../../core/excerpt.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import { isDateTime } from "../../core/date-time.ts";
import { projectSettings } from "./project-settings.ts";
import type { RuleId } from "../../core/rules/index.ts";
import { diagnostic, printable, printableFile, type Diagnostic } from "../report/diagnostics.ts";
import { formatDiagnostic } from "../report/text.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { keysOption } from "./keys-option.ts";
import { receiptKeyOption, type SignedReceiptManifest } from "./receipt-key-option.ts";
import type { evaluateCommand } from "./evaluate-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

/** The context `--context` gives, with what `--now`, `--purpose` and `--facet` override. */
export function contextOption(values: {
  context: unknown;
  now: string | undefined;
  purpose: string | undefined;
  facet: string[];
}): EvaluationContext {
  const { context, now, purpose, facet } = values;
  const members = context === undefined ? {} : context;
  if (!isJsonObject(members)) throw new UsageError("--context must be a JSON object");
  if (now !== undefined && !isDateTime(now))
    throw new UsageError(`--now must be an RFC 3339 date-time such as 2026-06-01T00:00:00Z, not '${excerpt(now)}'`);
  if (facet.includes("")) throw new UsageError("--facet must not be empty");
  return {
    ...members,
    ...(now !== undefined && { now }),
    ...(purpose !== undefined && { intendedPurpose: purpose }),
    ...(facet.length > 0 && { facets: facet }),
  };
}

export const runEvaluate: CommandRun<typeof evaluateCommand> = async (values, [file]) => {
  const context = contextOption(values);
  const settings = projectSettings();
  const keys = keysOption(values.keys, settings);
  const cacheDir = httpCacheDir("evaluate", values);
  const offline = offlineChosen("evaluate", values);
  if (cacheDir !== undefined && offline) throw new UsageError("--http-cache keeps DID documents: not with --offline");
  const output = await receiptKeyOption(values, settings);
  if (typeof output === "string") {
    console.error(printable(`manifest-resolver: ${output}`));
    return EXIT_FAILED;
  }
  const bytes = readAtMost(file, settings.limits.maxManifestBytes + 1);
  const cache = cacheDir === undefined ? undefined : guardedCache(fileCache(cacheDir));
  let evaluated: { receipt: Receipt; source?: SourceMap };
  let proof: OfflineProof | undefined;
  try {
    // The proof's cosignatures are as old as the evaluation's clock says: a context that is not one is a usage error.
    proof = await proofOption(values, bytes, resolveContext(context).now);
    evaluated = await evaluateWithSourceMap(
      bytes,
      context,
      {
        standardsUrl: settings.standardsUrl,
        limits: settings.limits,
        ...(keys !== undefined && { keys }),
        offline,
        ...(cache !== undefined && { cache }),
      },
      proof?.ok === false ? { refusal: proof.refusal } : {},
    );
  } catch (error) {
    if (error instanceof ContextError) throw new UsageError(`--context: ${error.message}`);
    throw error;
  }
  const { receipt, source } = evaluated;
  if (cache?.failure !== undefined)
    console.error(printable(`manifest-resolver: warning: --http-cache ${cacheDir}: ${cache.failure}`));
  printReceipt(await output(receipt, resolveContext(context).now), values.json === true);
  for (const diagnostic of diagnostics(file, source, receipt)) console.error(formatDiagnostic(diagnostic));
  if (proof?.ok)
    console.error(
      printable(
        `${file}: logged, entry ${proof.index} of ${proof.size}, the latest of its UMID; witnessed by ` +
          `${proof.witnessed.cosigned} of ${proof.witnessed.of}`,
      ),
    );
  if (process.stderr.isTTY) console.error(summary(file, receipt));
  return receipt.outcome === "rejected" ? EXIT_FAILED : EXIT_OK;
};

/**
 * The check of `--proof` under `--log-policy` for the manifest in `bytes`, as of `now`: undefined without them.
 * The UMID the proof must be of is the manifest's `@id`; a file with none fails the proof, as it fails evaluation.
 */
async function proofOption(
  values: { proof: string | undefined; "log-policy": string | undefined; "max-cosignature-age": number | undefined },
  bytes: Uint8Array,
  now: Date,
): Promise<OfflineProof | undefined> {
  const { proof: proofFile, "log-policy": policyFile } = values;
  if (proofFile === undefined && policyFile === undefined) return undefined;
  if (proofFile === undefined || policyFile === undefined)
    throw new UsageError("--proof and --log-policy go together: a proof is checked under a policy");
  const { policy } = logPolicyOption(values, undefined)!;
  let proofText: string;
  try {
    proofText = readFileSync(proofFile, "utf8");
  } catch (error) {
    throw new UsageError(`--proof ${proofFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const umid = manifestId(bytes);
  if (umid === undefined) return logRefusal("log/unproven", "the manifest has no @id, so no UMID to prove");
  const maxAge = values["max-cosignature-age"];
  return verifyOfflineProof(proofText, umid, bytes, policy, {
    now: now.getTime(),
    ...(maxAge !== undefined && { maxAge }),
  });
}

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

/** The receipt on stdout, signed or not: indented, or on one line. */
export function printReceipt(receipt: Receipt | SignedReceiptManifest, oneLine: boolean): void {
  // Line by line: JSON escapes the line breaks inside values, so each line is one of ours.
  const text = oneLine ? JSON.stringify(receipt) : JSON.stringify(receipt, null, 2);
  console.log(text.split("\n").map(printable).join("\n"));
}

/** The rule of an Arrive warning that names none of its own: its reason code, without `um:reason:`. */
const ARRIVAL_RULES: Partial<Record<string, RuleId>> = {
  "um:reason:arrive:malformed": "arrive:malformed",
  "um:reason:arrive:too-large": "arrive:too-large",
  "um:reason:arrive:unsupported-version": "arrive:unsupported-version",
};

/**
 * The problems that kept the manifest from being read, placed in the file (`source`: where its values are, if it
 * parsed).
 */
function diagnostics(file: string, source: SourceMap | undefined, receipt: Receipt): Diagnostic[] {
  const arrival = receipt.warnings.filter((w) => w.code.startsWith("um:reason:arrive:"));
  return arrival.map((w) => {
    const rule = w.rule ?? ARRIVAL_RULES[w.code];
    if (rule === undefined) throw new Error(`the Arrive warning ${w.code} has no rule (core/rules/relying-party.ts)`);
    const place =
      w.line !== undefined
        ? { line: w.line, column: w.column! }
        : w.pointer !== undefined
          ? source?.place(w.pointer)
          : undefined;
    // A structural warning's message starts with its place, which the diagnostic prints last.
    const prefix = w.pointer === undefined ? "" : `${placeName(w.pointer)}: `;
    const message = w.message.startsWith(prefix) ? w.message.slice(prefix.length) : w.message;
    return diagnostic(
      rule,
      { file, ...(w.pointer !== undefined && { pointer: w.pointer }), ...place },
      message,
      "error",
    );
  });
}

/**
 * A few lines for a person about what `file` (or a URL) held: the outcome, the checks, and why it is not plainly
 * accepted.
 */
export function summary(file: string, r: Receipt): string {
  const facets =
    r.facetStatuses.length === 0
      ? ""
      : `; ${r.facetStatuses.filter((f) => f.status === "processed").length} of ` +
        `${r.facetStatuses.length} facets processed`;
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
    `${printableFile(file)}: ${r.outcome} (signature ${r.signatureCheck}, key ` +
      `${r.keyRefResolution}${r.keyRefResolvedBy === undefined ? "" : ` by ${r.keyRefResolvedBy}`}, freshness ${r.freshnessCheck}, revocation ` +
      `${r.revocationStatus}${facets})`,
    ...shown,
  ]
    .map(printable)
    .join("\n");
}
