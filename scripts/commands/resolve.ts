/**
 * `manifest-resolver resolve`: the relying party's client (core/client/) from a shell:
 * resolve a UMID at a resolver (contract §4.3), follow its redirect, resolve the
 * manifest's status (EXT-OPT O2), evaluate it (core §3.1), and print the receipt. The
 * library runs in any runtime; this is its Node front end: flags, a cache in files, exit
 * statuses, and the summary a person reads.
 */
import { httpCacheDir } from "./deprecated-spelling.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ContextError, resolveContext } from "../../core/evaluate/index.ts";
import { parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { baseUrlProblem, originProblem, resolve } from "../../core/client/index.ts";
import { fileCache } from "../client/file-cache.ts";
import { fileTrustMemory } from "../client/file-trust-memory.ts";
import { projectSettings } from "./project-settings.ts";
import { printable } from "../report/diagnostics.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { contextOption, printReceipt, summary } from "./evaluate.ts";
import { keysOption } from "./keys-option.ts";
import { logPolicyOption } from "./log-policy-option.ts";
import { receiptKeyOption } from "./receipt-key-option.ts";
import type { resolveCommand } from "./resolve-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runResolve: CommandRun<typeof resolveCommand> = async (values, [baseUrl, umid]) => {
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) throw new UsageError(`BASE_URL ${problem}`);
  const context = contextOption(values);
  const cacheDir = httpCacheDir("resolve", values);
  const settings = projectSettings();
  const keys = keysOption(values.keys, settings);
  const logKey = logKeyOption(values["log-key"]);
  const logPolicy = logPolicyOption(values, logKey)?.text;
  for (const origin of values["status-origin"]) {
    const originIssue = originProblem(origin);
    if (originIssue !== undefined) throw new UsageError(`--status-origin ${originIssue}`);
  }
  for (const peer of values.federate) {
    const peerProblem = baseUrlProblem(peer);
    if (peerProblem !== undefined) throw new UsageError(`--federate ${peerProblem}`);
  }
  const output = await receiptKeyOption(values, settings);
  if (typeof output === "string") {
    console.error(printable(`manifest-resolver: ${output}`));
    return EXIT_FAILED;
  }
  let result: Awaited<ReturnType<typeof resolve>>;
  try {
    result = await resolve(baseUrl, umid, {
      context,
      standardsUrl: settings.standardsUrl,
      limits: settings.limits,
      ...(keys !== undefined && { keys }),
      ...(cacheDir !== undefined && {
        cache: fileCache(cacheDir),
        memory: fileTrustMemory(join(cacheDir, "memory")),
      }),
      ...(values.offline === true && { offline: true }),
      ...(logPolicy !== undefined ? { logPolicy } : logKey !== undefined && { logKey }),
      ...(values["max-cosignature-age"] !== undefined && { maxCosignatureAge: values["max-cosignature-age"] }),
      ...(values["status-origin"].length > 0 && { statusOrigins: values["status-origin"] }),
      ...(values.federate.length > 0 && { federate: values.federate }),
      ...(values["federate-discover"] === true && { federateDiscover: true }),
    });
  } catch (error) {
    if (error instanceof ContextError) throw new UsageError(`--context: ${error.message}`);
    throw error;
  }
  // One line for the folder: its responses' failure, then its memory's.
  const failures = [result.cacheFailure, result.memoryFailure].filter((failure) => failure !== undefined);
  if (failures.length > 0)
    console.error(printable(`manifest-resolver: warning: --http-cache ${cacheDir}: ${failures.join("; ")}`));
  if (!("receipt" in result)) {
    console.error(printable(`manifest-resolver: ${result.reason}`));
    return EXIT_FAILED;
  }
  printReceipt(await output(result.receipt, resolveContext(context).now), values.json === true);
  if (process.stderr.isTTY) console.error(summary(result.manifestUrl, result.receipt));
  return result.receipt.outcome === "rejected" ? EXIT_FAILED : EXIT_OK;
};

/** The verifier key `--log-key` gives, as text or in the file it names; a usage error when it is neither. */
function logKeyOption(given: string | undefined): string | undefined {
  if (given === undefined || parseVerifierKey(given) !== undefined) return given;
  let text: string;
  try {
    text = readFileSync(given, "utf8").trimEnd();
  } catch (error) {
    throw new UsageError(
      `--log-key ${given}: neither a verifier key (<origin>+<keyid>+<key>) nor a file that can be read ` +
        `(${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  if (parseVerifierKey(text) === undefined)
    throw new UsageError(`--log-key ${given}: the file holds no signed-note verifier key (<origin>+<keyid>+<key>)`);
  return text;
}
