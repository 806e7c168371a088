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
import { formatVerifierKey } from "../../core/tlog/note-keys.ts";
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
import { displayPath, ROUTES_FILE } from "../read/files.ts";
import { diagnostic, hasErrors, printable, summarize } from "../report/diagnostics.ts";
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
      return EXIT_OK;
    }
    const appended = await appendEntries(fileTileStore(logDir), old.size, entries);
    const umids = entries.map((entry) => parseLogEntry(entry)!.umid);
    const map = await extendedLatestMap(opened.map, umids, old.size);
    const extensions = [formatLatestLine(map)];
    const checkpoint = { origin, size: appended.size, rootHash: appended.rootHash, extensions };
    const verifier = opened.key === undefined ? formatVerifierKey(origin, signer.publicKey) : undefined;
    await writeLog(logDir, old.size, appended.files, await signCheckpoint(checkpoint, signer), verifier);
    const appendedText = `${entries.length} ${entries.length === 1 ? "entry" : "entries"}`;
    console.log(`${shownLog} appended ${appendedText}: size ${appended.size}, root ${encodeBase64(appended.rootHash)}`);
    return EXIT_OK;
  });
};

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
