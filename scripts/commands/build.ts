/** `manifest-resolver build`: validate the content directory and write the output directory. */
import { verificationCacheOff } from "./deprecated-spelling.ts";
import { join, resolve } from "node:path";
import {
  type Built,
  type ContentCheck,
  logStates,
  missingContentProblem,
  openCache,
  openContentLog,
  outputStages,
  saveCache,
} from "../pipeline/index.ts";
import { projectSettings } from "./project-settings.ts";
import { projectRoot } from "../read/content-root.ts";
import { withFileLocks } from "../edit/file-lock.ts";
import { displayPath } from "../read/display-path.ts";
import { fromCache, plural, printable, printableFile, sortDiagnostics } from "../report/diagnostics.ts";
import { duration, size } from "../report/human-units.ts";
import { LOOKUP_PAGE_MARKER, lookupPageFiles } from "../lookup-page-files/files.ts";
import { publishersLog } from "../lookup-page-files/page-meta.ts";
import { printProblems, printWarning } from "../report/problem-report.ts";
import { Progress } from "../report/progress.ts";
import { EXIT_FAILED, EXIT_OK } from "../cli/command.ts";
import { sarifFile, writeSarif } from "./sarif-option.ts";
import { STATUS_LIST_KEY_VARIABLE, type StatusListSigner, statusListSigner } from "../crypto/status-list-key.ts";
import { CONFIG_FILE, keyFile, type Settings } from "../config.ts";
import { existsSync } from "node:fs";
import type { build } from "./build-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runBuild: CommandRun<typeof build> = async (values) => {
  const contentDir = values.content;
  const outDir = displayPath(values.out);
  const lookupDir = displayPath(values["lookup-out"]);
  const kv = {
    dir: displayPath(values["kv-out"] ?? join(projectRoot(), "dist-kv")),
    asked: values["kv-out"] !== undefined,
  };
  const started = performance.now();
  const settings = projectSettings();
  const shown = values["max-problems"];
  const sarif = sarifFile(values.sarif);
  const { buildOutput, keepBodies, logRoutes, OutputError, recoverOutput, writeOutput } = await outputStages();
  const reportingWriteErrors = writeErrorsReported(OutputError);
  const signer = await statusListKey(settings);
  if (typeof signer === "string") {
    console.error(`manifest-resolver: ${signer}`);
    return EXIT_FAILED;
  }

  // One build at a time writes these outputs; first, whatever a killed build left is put right.
  const outputs = [outDir, lookupDir, kv.dir];
  return withFileLocks(
    outputs.map((dir) => resolve(dir)),
    settings.lockWaitMs,
    async () => {
      for (const dir of outputs) for (const line of await recoverOutput(dir)) console.error(line);
      // No content, no cache: a build refused for want of content leaves nothing behind (a node_modules/ here would
      // make npm take this folder for a package).
      const cache =
        (await missingContentProblem(contentDir)) === undefined
          ? openCache(verificationCacheOff("build", values), true)
          : undefined;
      // Opened once, before the content is checked: its files count toward the hosts' limits.
      const contentLog = await openContentLog(contentDir, cache && logStates(cache.dir));
      const progress = new Progress(process.stderr, "building");
      const log = await logRoutes(contentLog);
      const outcome = await reportingWriteErrors(outDir, () =>
        buildOutput({
          contentDir,
          outDir,
          kv,
          allowEmpty: values["allow-empty"] === true,
          cache,
          contentLog,
          log,
          signer,
          settings,
          progress: (checked, total) => progress.update(checked, total),
        }).finally(() => progress.stop()),
      );
      if (outcome !== undefined) {
        printProblems(outcome.content.diagnostics, { maxProblems: shown, write: (line) => console.log(line) });
        if (sarif !== undefined) await writeSarif(sarif, sortDiagnostics(outcome.content.diagnostics));
        if ("refusal" in outcome) console.log(printable(`${outcome.refusal} ${outDir} was left unchanged.`));
      }
      const built =
        outcome !== undefined && "built" in outcome ? { ...outcome.built, content: outcome.content } : undefined;
      const page =
        built &&
        (await reportingWriteErrors(lookupDir, async () =>
          writeOutput(
            lookupDir,
            await lookupPageFiles(settings.resolverUrl, "", await publishersLog(contentDir)),
            LOOKUP_PAGE_MARKER,
          ).then(() => true),
        ));
      // Only once every output is written: on a disk the cache shares with them, its bodies must never take their
      // room.
      if (page !== undefined)
        keepBodies(cache, built!.content.published, (umid) => join(outDir, built!.bodyFile(umid)), built!.held);
      saveCache(cache);
      if (built === undefined || page === undefined) return EXIT_FAILED;
      for (const warning of built.hostWarnings) printWarning(warning);
      if (settings.resolverUrl === "") {
        printWarning(
          `UM_RESOLVER_URL is not set, so the lookup page in ${lookupDir}/ asks its reader which resolver to ask; ` +
            `set UM_RESOLVER_URL to your resolver's URL to make it the default`,
        );
      }
      report(built, contentDir, outDir, lookupDir, started);
      return EXIT_OK;
    },
  );
};

function report(
  built: Built & { content: ContentCheck },
  contentDir: string,
  outDir: string,
  lookupDir: string,
  started: number,
): void {
  const { content, bytes } = built;
  console.log(
    `built ${outDir}/ from ${displayPath(contentDir)}/: ${plural(content.published.length, "manifest")}, ` +
      `${plural(content.redirects.size, "redirect")}, ${content.revoked.size} revoked, ` +
      `${[...content.statuses.values()].filter((s) => s.list === "suspended").length} ` +
      `suspended ` +
      `(${size(bytes)}) in ` +
      `${duration(performance.now() - started)}${fromCache(content.recalled)}; lookup ` +
      `page in ${lookupDir}/` +
      (built.kvDir === undefined
        ? ""
        : `; Workers KV bulk files in ${built.kvDir}/ (${plural(built.kvFiles, "file")})`),
  );
  if (content.legacy.length > 0) {
    console.log(
      `legacy (checked as manifestVersion < 0.4): ` +
        `${content.legacy.map((m) => `${printableFile(m.file)} (${m.version})`).join(", ")}`,
    );
  }
}

/**
 * What runs a write to `dir`: a file system's refusal, or an `OutputError` (the output stages' own, passed in as they
 * are loaded), is reported (undefined); anything else is a bug and throws.
 */
function writeErrorsReported(OutputError: new () => Error) {
  return async <T>(dir: string, write: () => Promise<T | undefined>): Promise<T | undefined> => {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof OutputError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
      console.error(`manifest-resolver: cannot write ${dir}: ${(error as Error).message}`);
      return undefined;
    }
  };
}

/**
 * What signs the status lists: UM_STATUS_LIST_KEY (CI's secret), else the keys folder's `status-list.pem` (a build on
 * the publisher's machine); the key the project names (statusListKey) when it names one, as any other would publish
 * lists no relying party that pinned it could verify.
 */
async function statusListKey(settings: Settings): Promise<StatusListSigner | string | undefined> {
  const local = keyFile(settings, "status-list");
  const signer = await statusListSigner(
    process.env[STATUS_LIST_KEY_VARIABLE] || (existsSync(local) ? local : undefined),
  );
  if (signer === undefined || typeof signer === "string" || settings.statusListKey === undefined) return signer;
  return signer.did === settings.statusListKey
    ? signer
    : `the status lists' key is ${signer.did}, not the statusListKey of ${CONFIG_FILE} (${settings.statusListKey})`;
}
