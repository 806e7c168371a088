/** `manifest-resolver build`: validate the content directory and write the output directory. */
import { join, resolve } from "node:path";
import { OutputUpdate, type PublishedBodies } from "../write/output-update.ts";
import { etagSha256, formatEtag } from "../../edge/etag.ts";
import type { PublishedManifests } from "../check/published.ts";
import { hostWarnings, staticOutput, writesKv, type StaticOutput } from "../plan/host-limits.ts";
import { assertKvFolder, writeKvOutput } from "../write/kv-output.ts";
import { BodyNames } from "../plan/body-names.ts";
import { planBody, planOutput } from "../plan/output-plan.ts";
import type { RouteStatus } from "../check/routes.ts";
import { OutputError, recoverOutput, writeOutput } from "../write/output.ts";
import { settingsFromEnv, type Settings } from "../config.ts";
import { checkContent, type ContentCheck, missingContentProblem } from "../check/check-content.ts";
import { projectRoot } from "../read/content-root.ts";
import { withFileLocks } from "../edit/file-lock.ts";
import { displayPath } from "../read/files.ts";
import {
  diagnostic,
  hasErrors,
  plural,
  printable,
  printableFile,
  sortDiagnostics,
  summarize,
} from "../report/diagnostics.ts";
import { duration, size } from "../report/human-units.ts";
import { LOOKUP_PAGE_MARKER, lookupPageFiles } from "../lookup-page-files/files.ts";
import { printProblems } from "../report/problem-report.ts";
import { Progress } from "../report/progress.ts";
import { EXIT_FAILED, EXIT_OK } from "../cli/command.ts";
import { fromCache, keepBodies, openCache, recalledBody, saveCache } from "./cache-option.ts";
import type { VerificationCache } from "../cache/verification-cache.ts";
import { sarifFile, writeSarif } from "./sarif-option.ts";
import { type ContentLog, openContentLog } from "../log/log-folder.ts";
import { logRoutes } from "../log/log-output.ts";
import type { Route } from "../plan/routes.ts";
import { logStates } from "../log/state-store.ts";
import { appendAll } from "../../core/append-all.ts";
import { logGateProblems } from "../log/log-gate.ts";
import { STATUS_FOLDER } from "../check/status-allocation.ts";
import { STATUS_LIST_KEY_VARIABLE, type StatusListSigner, statusListSigner } from "../crypto/status-list-key.ts";
import { wellKnownRoutes } from "../plan/status-lists.ts";
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
  const settings = settingsFromEnv();
  const shown = values["max-problems"];
  const sarif = sarifFile(values.sarif);
  const signer = await statusListSigner(process.env[STATUS_LIST_KEY_VARIABLE]);
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
      const cache = (await missingContentProblem(contentDir)) === undefined ? openCache(values, true) : undefined;
      // Opened once, before the content is checked: its files count toward the hosts' limits.
      const contentLog = await openContentLog(contentDir, cache && logStates(cache.dir));
      const options = {
        allowEmpty: values["allow-empty"] === true,
        maxProblems: shown,
        cache,
        sarif,
        contentLog,
        log: await logRoutes(contentLog),
        signer,
      };
      const built = await reportingWriteErrors(outDir, () => buildInto(contentDir, outDir, kv, options, settings));
      const page =
        built &&
        (await reportingWriteErrors(lookupDir, async () =>
          writeOutput(lookupDir, await lookupPageFiles(settings.resolverUrl), LOOKUP_PAGE_MARKER).then(() => true),
        ));
      // Only once every output is written: on a disk the cache shares with them, its bodies must never take their
      // room.
      if (page !== undefined)
        keepBodies(cache, built!.content.published, (umid) => join(outDir, built!.bodyFile(umid)));
      saveCache(cache);
      if (built === undefined || page === undefined) return EXIT_FAILED;
      for (const warning of built.hostWarnings) console.error(`manifest-resolver: warning: ${warning}`);
      if (settings.resolverUrl === "") {
        console.error(
          `manifest-resolver: warning: UM_RESOLVER_URL is not set, so the lookup page in ` +
            `${printable(lookupDir)}/ asks its reader which resolver to ask; set ` +
            `UM_RESOLVER_URL to your resolver's URL to make it the default`,
        );
      }
      report(built, contentDir, outDir, lookupDir, started);
      return EXIT_OK;
    },
  );
};

/**
 * What a build made: its content check, the bytes written, its KV bulk files if any, and what it warns of hosts'
 * limits.
 */
interface Built {
  content: ContentCheck;
  /** The file of a UMID's body, relative to the output folder. */
  bodyFile(umid: string): string;
  bytes: number;
  kvDir?: string;
  kvFiles: number;
  hostWarnings: string[];
}

function report(built: Built, contentDir: string, outDir: string, lookupDir: string, started: number): void {
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
 * Checks the content and stages the output as it goes (output-update.ts: the bodies checked anew as each manifest is
 * checked; the index and the bodies it needs besides at the end), then puts it in place, and writes the KV pairs when
 * asked for; on any error in the content, prints it and leaves every output as it was (undefined).
 */
async function buildInto(
  contentDir: string,
  outDir: string,
  kvOut: { dir: string; asked: boolean },
  {
    allowEmpty,
    maxProblems,
    cache,
    sarif,
    contentLog,
    log,
    signer,
  }: {
    allowEmpty: boolean;
    maxProblems: number;
    cache: VerificationCache | undefined;
    sarif: string | undefined;
    /** The content's transparency log, opened: the gate's to judge (scripts/log/log-gate.ts). */
    contentLog: ContentLog | undefined;
    /** The transparency log's files to serve (scripts/log/log-output.ts). */
    log: readonly Route[];
    /** What signs the status lists (UM_STATUS_LIST_KEY), if anything. */
    signer: StatusListSigner | undefined;
  },
  settings: Settings,
): Promise<Built | undefined> {
  const update = await OutputUpdate.open(outDir);
  let kvDir: string | undefined;
  let output: StaticOutput = { files: 0, largestFolder: 0 };
  try {
    // The bytes of every body published: what the output holds, whatever this build writes of it.
    let bodyBytes = 0;
    let statuses: ReadonlyMap<string, RouteStatus> = new Map();
    const nextCheck = settings.statusNextCheck;
    const progress = new Progress(process.stderr, "building");
    const checking = {
      settings,
      now: new Date(),
      strict: false,
      progress: (checked: number, total: number) => progress.update(checked, total),
      ...(cache && { cache }),
    };
    const names = new BodyNames();
    const content = await checkContent(contentDir, checking, {
      outline: async (outline) => {
        // Hosts count files, not manifests: decided on what the output holds at most.
        output = staticOutput({ ...outline, logFiles: log.length });
        kvDir = kvOut.asked || writesKv(output) ? kvOut.dir : undefined;
        if (kvDir !== undefined) await assertKvFolder(kvDir);
        statuses = outline.statuses;
      },
      publish: async (manifest) => {
        // An unchanged body is neither read nor written in place: the previous output holds it, which the plan's diff
        // proves (or the update has it from the cache's store or its file: output-update.ts).
        const body =
          manifest.body.kind === "bytes"
            ? manifest.body.bytes
            : update.inPlace
              ? undefined
              : recalledBody(cache!, manifest.umid, manifest.body.stored.digest);
        if (body === undefined && !update.inPlace) return false;
        update.stage(planBody(manifest, names, statuses, nextCheck).placed, body);
        bodyBytes += manifest.body.kind === "bytes" ? manifest.body.bytes.byteLength : manifest.body.stored.bytes;
        return true;
      },
    }).finally(() => progress.stop());
    // As check judges it: a log (content/_log/) that does not verify, or does not record what this build would serve,
    // refuses the build (issue 26, section 3).
    appendAll(content.diagnostics, await logGateProblems(contentDir, contentLog?.opened, content));
    const wellKnown = await wellKnownRoutes(content, nextCheck, signer, content.resolversDocument, checking.now);
    if (signer === undefined && content.statusAllocation.lists.length > 0)
      content.diagnostics.push(
        diagnostic(
          "status-list/unsigned",
          { file: displayPath(join(contentDir, STATUS_FOLDER)) },
          `the status lists are published without a proof: set ${STATUS_LIST_KEY_VARIABLE} to sign them`,
        ),
      );
    const plan = planOutput(content, names, nextCheck, [...wellKnown, ...log]);
    if (!hasErrors(content.diagnostics) && (content.published.length > 0 || allowEmpty)) {
      // A body found in neither the output nor the cache is its file's, checked again: a file changed since fails.
      const bodyOf = (umid: string, etag: string) => {
        const digest = Buffer.from(etagSha256(etag)).toString("hex");
        return (cache && recalledBody(cache, umid, digest)) ?? content.bodyAgain(umid, digest);
      };
      await update.prepare(plan.indexFiles, publishedBodies(content.published, names), bodyOf);
    }
    printProblems(content.diagnostics, { maxProblems, write: (line) => console.log(line) });
    if (sarif !== undefined) await writeSarif(sarif, sortDiagnostics(content.diagnostics));
    // An empty content folder is far more often a mistake (a wrong --content, a deletion)
    // than a wish to answer 404 for every UMID that was published.
    const refusal = hasErrors(content.diagnostics)
      ? summarize(content.diagnostics)
      : content.published.length === 0 && !allowEmpty
        ? `${displayPath(contentDir)} has no manifest to publish: this build would replace ` +
          `${outDir} with a resolver that answers 404 for every UMID; add manifests, or ` +
          `pass --allow-empty if that is what you mean.`
        : undefined;
    if (refusal !== undefined) {
      console.log(`${printable(`${refusal} ${outDir} was left unchanged.`)}`);
      await update.discard();
      return undefined;
    }
    await update.commit();
    // Each pair's value is the body the output now serves: changed or not, it is there.
    const kvFiles = kvDir === undefined ? 0 : await writeKvOutput(kvDir, plan.kvShards(), outDir, plan.routed);
    return {
      content,
      bodyFile: (umid) => names.fileOf(umid),
      bytes: bodyBytes + update.indexBytes,
      ...(kvDir !== undefined && { kvDir }),
      kvFiles,
      // A folder fuller than a uniform hash makes (UMIDs chosen to collide) is warned of as it is.
      hostWarnings: hostWarnings(
        { ...output, largestFolder: Math.max(output.largestFolder, update.largestFolder()) },
        { out: printable(outDir), kv: printable(kvOut.dir) },
        settings.limits.maxManifestBytes,
      ),
    };
  } catch (error) {
    await update.discard();
    throw error;
  }
}

/** Each published body, where the plan put it, with its ETag. */
function publishedBodies(published: PublishedManifests, names: BodyNames): PublishedBodies {
  return {
    count: published.length,
    *each() {
      for (let i = 0; i < published.length; i++) {
        const umid = published.umidAt(i);
        yield { umid, file: names.fileOf(umid), etag: formatEtag(published.digestBytesAt(i)) };
      }
    },
  };
}

/** Runs `write`; a file system's refusal is reported (undefined), anything else is a bug and throws. */
async function reportingWriteErrors<T>(dir: string, write: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof OutputError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
    console.error(`manifest-resolver: cannot write ${dir}: ${(error as Error).message}`);
    return undefined;
  }
}
