/** `manifest-resolver log`: append what the content now serves to its transparency log, and sign a checkpoint. */
import { verificationCacheOff } from "./deprecated-spelling.ts";
import { join } from "node:path";
import { encodeBase64 } from "../../core/base64url.ts";
import { quoted } from "../../core/excerpt.ts";
import { appendEntries } from "../../core/tlog/append.ts";
import { MAX_ENTRY_SIZE } from "../../core/tlog/entry-bundle.ts";
import { signCheckpoint } from "../../core/tlog/checkpoint.ts";
import { extendedLatestMap, formatLatestLine } from "../../core/tlog/latest-map.ts";
import { parseLogEntry } from "../../core/tlog/log-entry.ts";
import { isKeyName } from "../../core/tlog/note.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import type { LogPolicy, PolicyWitness } from "../../core/tlog/log-policy.ts";
import { formatVerifierKey, type NoteKey } from "../../core/tlog/note-keys.ts";
import { checkContent, logStates, openCache, saveCache } from "../pipeline/index.ts";
import { projectSettings } from "./project-settings.ts";
import { CONFIG_FILE, keyFile } from "../config.ts";
import { existsSync } from "node:fs";
import { pemNoteSigner } from "../crypto/note-signer.ts";
import { withFileLocks } from "../edit/file-lock.ts";
import { changedEntries, revivedUmids, servedEntries } from "../log/log-entries.ts";
import { revivalProblem, unservedProblem } from "../log/log-gate.ts";
import {
  CHECKPOINT_FILE,
  emptyCheckpoint,
  fileTileStore,
  LOG_FOLDER,
  openLog,
  VERIFIER_FILE,
  writeLog,
} from "../log/log-folder.ts";
import { POLICY_FILE, readLogPolicy } from "../log/policy-file.ts";
import { witnessRound } from "../log/witness-round.ts";
import { witnessProblem } from "../log/witnessed-note.ts";
import { displayPath, ROUTES_FILE } from "../read/files.ts";
import { type Diagnostic, diagnostic, hasErrors, printable, summarize } from "../report/diagnostics.ts";
import { printProblems } from "../report/problem-report.ts";
import { DEFAULT_MAX_PROBLEMS } from "./shared-options.ts";
import { formatDiagnostic } from "../report/text.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import type { log } from "./log-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runLog: CommandRun<typeof log> = async (values) => {
  const settings = projectSettings();
  const contentDir = values.content;
  const logDir = join(contentDir, LOG_FOLDER);
  const shownLog = `${displayPath(logDir)}/`;
  // The log's own lock, and _routes.json's: the states read are those the log then records.
  const locks = [logDir, join(contentDir, ROUTES_FILE)];
  return withFileLocks(locks, settings.lockWaitMs, async () => {
    const cache = openCache(verificationCacheOff("log", values), false);
    const opened = await openLog(logDir, cache && logStates(cache.dir));
    if (!opened.ok) return refuse(opened.rule ?? "log/unverifiable", join(logDir, opened.file), opened.reason);
    const origin =
      opened.key?.name ?? checkedOrigin(newOrigin(values.origin ?? settings.logOrigin, settings.resolverUrl));
    if (opened.key !== undefined && values.origin !== undefined && values.origin !== origin)
      throw new UsageError(`--origin '${values.origin}' is not this log's origin, '${origin}': a log keeps its name`);
    const keyPath = values.key ?? keyFile(settings, "log");
    if (values.key === undefined && !existsSync(keyPath))
      throw new UsageError(
        `no log key at ${keyPath}: make one with manifest-resolver keygen --role log, or give --key PEM`,
      );
    const signer = await pemNoteSigner(keyPath, origin);
    if (typeof signer === "string") {
      console.error(`manifest-resolver: ${printable(signer)}`);
      return EXIT_FAILED;
    }
    if (opened.key !== undefined && encodeBase64(opened.key.publicKey) !== encodeBase64(signer.publicKey)) {
      const verifier = join(logDir, VERIFIER_FILE);
      return refuse("log/wrong-key", verifier, `${keyPath} is not the key of the log ${origin}`);
    }

    const policy = await readLogPolicy(logDir, signer);
    if (policy?.ok === false) {
      console.error(formatDiagnostic(policy.problem));
      return EXIT_FAILED;
    }
    const asked = witnessesAsked(policy?.policy, values.witness, displayPath(join(logDir, POLICY_FILE)));
    const witnessed = (signed: string, previous?: Uint8Array) =>
      policy === undefined ? EXIT_OK : cosign(logDir, signer, policy.policy, asked, signed, previous);

    const content = await checkContent(contentDir, {
      settings,
      now: new Date(),
      strict: false,
      ...(cache && { cache }),
    });
    saveCache(cache);
    if (hasErrors(content.diagnostics)) {
      printProblems(content.diagnostics, { maxProblems: DEFAULT_MAX_PROBLEMS, write: (line) => console.log(line) });
      console.log(printable(`${summarize(content.diagnostics)} ${shownLog} was left unchanged.`));
      return EXIT_FAILED;
    }
    const served = servedEntries(content);
    const unserved = unservedProblem(logDir, content, served, opened.logged.latest);
    if (unserved !== undefined) {
      console.error(formatDiagnostic(unserved));
      return EXIT_FAILED;
    }
    const revived = revivedUmids(served, opened.logged.latest);
    if (revived.length > 0) {
      console.error(formatDiagnostic(revivalProblem(logDir, revived)));
      return EXIT_FAILED;
    }
    const entries = changedEntries(served, opened.logged.latest);
    const tooLarge = entries.find((entry) => entry.length > MAX_ENTRY_SIZE);
    if (tooLarge !== undefined) {
      const umid = parseLogEntry(tooLarge)!.umid;
      const message = `the entry of ${quoted(umid)} is ${tooLarge.length} bytes, over the ${MAX_ENTRY_SIZE} a bundle can`;
      return refuse("log/entry-too-large", join(logDir, CHECKPOINT_FILE), message);
    }
    const old = opened.checkpoint ?? emptyCheckpoint(origin);
    if (entries.length === 0 && opened.checkpoint !== undefined) {
      console.log(`${shownLog} unchanged: size ${old.size}, root ${encodeBase64(old.rootHash)}`);
      return witnessed(new TextDecoder().decode(opened.signedCheckpoint));
    }
    const appended = await appendEntries(fileTileStore(logDir), old.size, entries);
    const umids = entries.map((entry) => parseLogEntry(entry)!.umid);
    const map = await extendedLatestMap(opened.map, umids, old.size);
    const extensions = [formatLatestLine(map)];
    const checkpoint = { origin, size: appended.size, rootHash: appended.rootHash, extensions };
    const verifier = opened.key === undefined ? formatVerifierKey(origin, signer.publicKey) : undefined;
    const signed = await signCheckpoint(checkpoint, signer);
    await writeLog(logDir, old.size, appended.files, signed, verifier);
    const appendedText = `${entries.length} ${entries.length === 1 ? "entry" : "entries"}`;
    console.log(`${shownLog} appended ${appendedText}: size ${appended.size}, root ${encodeBase64(appended.rootHash)}`);
    return witnessed(signed, opened.signedCheckpoint);
  });
};

/**
 * The witnesses of `policy` to ask: those `urls` names (each must be a policy witness's URL: its key verifies what
 * it returns), else every one with a URL.
 */
function witnessesAsked(
  policy: LogPolicy | undefined,
  urls: readonly string[],
  policyFile: string,
): (PolicyWitness & { url: string })[] {
  if (policy === undefined) {
    if (urls.length === 0) return [];
    throw new UsageError(
      `--witness needs ${policyFile}, the log's witness policy (C2SP tlog-policy), naming each witness and its key, ` +
        "e.g. witness w1 witness1.example+1a2b3c4d+<key> https://witness1.example/ and quorum w1",
    );
  }
  const withUrl = policy.witnesses.filter((witness): witness is PolicyWitness & { url: string } => !!witness.url);
  if (urls.length === 0) return withUrl;
  const bare = (url: string) => url.replace(/\/+$/, "");
  const named = urls.map((url) => {
    const found = withUrl.find((witness) => bare(witness.url) === bare(url));
    if (found === undefined)
      throw new UsageError(`--witness ${url} is no witness URL of ${policyFile}: its key must be known there`);
    return found;
  });
  // A witness named twice is asked once: a second request at once would find the first's size, and be refused.
  return [...new Set(named)];
}

/** Has the checkpoint `signed` cosigned (witness-round.ts), and says what each witness answered; the exit status. */
async function cosign(
  logDir: string,
  logKey: NoteKey,
  policy: LogPolicy,
  asked: readonly (PolicyWitness & { url: string })[],
  signed: string,
  previous: Uint8Array | undefined,
): Promise<number> {
  const round = await witnessRound({ logDir, logKey, policy, asked, signed, previous, now: Date.now() });
  const file = displayPath(join(logDir, CHECKPOINT_FILE));
  const refusals: Diagnostic[] = [];
  for (const answer of round.answers) {
    const { name, url } = answer.witness;
    if (answer.outcome === "cosigned") console.log(printable(`witness ${name} (${url}) cosigned it`));
    else if (answer.outcome === "unreachable")
      console.log(printable(`witness ${name} (${url}) is unavailable: ${answer.answer}`));
    else refusals.push(diagnostic("log/unwitnessed", { file }, `witness ${name} (${url}) refused: ${answer.answer}`));
  }
  const problem = await witnessProblem(file, round.note, policy, Date.now());
  const problems = problem === undefined ? refusals : [...refusals, problem];
  for (const refusal of problems) console.error(formatDiagnostic(refusal));
  return problems.length === 0 ? EXIT_OK : EXIT_FAILED;
}

/** The origin of a new log: --origin, or UM_RESOLVER_URL's host and the log's path. */
function newOrigin(given: string | undefined, resolverUrl: string): string {
  if (given !== undefined) return given;
  if (resolverUrl === "")
    throw new UsageError(
      `a new log needs a name: pass --origin, or set resolverUrl (or logOrigin) in ${CONFIG_FILE}, or UM_RESOLVER_URL`,
    );
  return `${new URL(resolverUrl).host}${LOG_PREFIX}`;
}

/** The origin of a new log, once it is one a signed note can name (no space, no plus). */
function checkedOrigin(origin: string): string {
  if (!isKeyName(origin)) throw new UsageError(`'${origin}' cannot name a log: a log's origin has no space and no '+'`);
  return origin;
}

/** A signed-note signer named `origin` with the Ed25519 key in the PEM file, or why it cannot be had. */
function refuse(
  rule: "log/wrong-key" | "log/unverifiable" | "log/entry-too-large" | "log/revocation-undone",
  file: string,
  message: string,
): number {
  console.error(formatDiagnostic(diagnostic(rule, { file: displayPath(file) }, message)));
  return EXIT_FAILED;
}
