/** `manifest-resolver build`: validate the content directory and write the output directory. */
import { join, resolve } from "node:path";
import { BUILD_INFO_PATH } from "../../edge/records.ts";
import { BodyWriter } from "../write/body-writer.ts";
import { InPlaceOutput } from "../write/in-place.ts";
import { withState } from "../plan/output-state.ts";
import { CLOUDFLARE_FREE_FILES, hostWarnings, staticOutput, writesKv, type StaticOutput } from "../plan/host-limits.ts";
import { assertKvFolder, writeKvOutput } from "../write/kv-output.ts";
import { BodyNames } from "../plan/body-names.ts";
import { planBody, planOutput } from "../plan/output-plan.ts";
import type { RouteStatus } from "../check/routes.ts";
import {
  commitStaging,
  discardStaging,
  openStaging,
  OutputError,
  recoverOutput,
  writeFiles,
  writeOutput,
} from "../write/output.ts";
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
import { LOOKUP_PAGE_MARKER, lookupPageFiles } from "../lookup-page/files.ts";
import { printProblems } from "../report/problem-report.ts";
import { Progress } from "../report/progress.ts";
import { defineCommand, EXIT_FAILED, EXIT_OK } from "./command.ts";
import { CONTENT_OPTION } from "./content-option.ts";
import { MAX_PROBLEMS_OPTION } from "./max-problems.ts";
import { booleanOption, stringOption } from "./options.ts";
import {
  CACHE_ENVIRONMENT,
  CACHE_OPTION,
  fromCache,
  keepBodies,
  openCache,
  recalledBody,
  saveCache,
} from "./cache-option.ts";
import type { VerificationCache } from "../cache/verification-cache.ts";
import { SARIF_OPTION, sarifFile, writeSarif } from "./sarif-option.ts";
import { type ContentLog, openContentLog } from "../log/log-folder.ts";
import { logOutputFiles } from "../log/log-output.ts";
import { logStates } from "../log/state-store.ts";
import type { OutputFile } from "../plan/output-file.ts";
import { appendAll } from "../../core/append-all.ts";
import { logGateProblems } from "../log/log-gate.ts";
import { STATUS_FOLDER } from "../check/status-allocation.ts";
import { STATUS_LIST_KEY_VARIABLE, type StatusListSigner, statusListSigner } from "../crypto/status-list-key.ts";
import { wellKnownFile } from "../plan/status-lists.ts";

export const build = defineCommand({
  name: "build",
  description: `Validates the content directory as 'manifest-resolver check' does (its transparency
log, content/_log/, if any, included: it must verify and record what the build serves),
then writes one body file per manifest and the record index to the output directory. Nothing is written if
anything fails: the previous output directory is left as it was. Manifests that have
expired, or are not yet issued, are warnings here. The lookup page, a static page for
people to look UMIDs up in a browser, is written to its own folder: it must be hosted on
another origin than the resolver. When the output would hold over ${CLOUDFLARE_FREE_FILES.toLocaleString("en-US")} files
(Cloudflare's free-plan limit: a body per manifest, up to 4,096 index shards), or with
--kv-out, it also writes Workers KV bulk-upload files, for a Worker that reads its records
from KV: load each with 'wrangler kv bulk put FILE --binding UM_RECORDS --remote'. It
warns, on stderr, when the output nears or passes a host's limit (docs/hosts.md).
Problems are printed on stdout as 'manifest-resolver check' prints them.`,
  epilogue: `Environment:
  UM_STANDARDS_URL       site whose /ns/v0.4 context manifests must use
                         (default: https://universalmanifest.net)
  UM_MAX_MANIFEST_BYTES  largest manifest file (default: 1048576)
  UM_MAX_DEPTH           deepest nesting of objects and arrays (default: 10)
  UM_MAX_ARRAY_ITEMS     longest array (default: 1000)
  UM_RESOLVER_URL        the resolver the lookup page asks by default (default: none,
                         and a warning: the page asks its reader for one); the
                         did:web documents of keys pinned on its host are published
  UM_STATUS_LIST_KEY     the Ed25519 private key (PEM text, or a PEM file's path) that
                         signs the status lists (eddsa-jcs-2022, by its did:key);
                         unset: they are published without a proof, and a warning
  UM_LOCK_WAIT_MS        how long to wait for another build of the same output, or
                         another edit of the same file (default: 10000)
${CACHE_ENVIRONMENT}

Exit status: 0 built, 1 invalid content or write failure, 2 usage error.

Example:
  manifest-resolver build --content content --out dist`,
  positionals: [],
  options: {
    ...CONTENT_OPTION,
    out: stringOption({
      value: "DIR",
      help: "output directory",
      default: { text: "the repository's dist/", value: () => join(projectRoot(), "dist") },
    }),
    "lookup-out": stringOption({
      value: "DIR",
      help: "lookup page directory",
      default: { text: "the repository's dist-lookup/", value: () => join(projectRoot(), "dist-lookup") },
    }),
    "kv-out": stringOption({
      value: "DIR",
      help: "Workers KV bulk files directory",
      default: { text: "the repository's dist-kv/, when written" },
    }),
    "allow-empty": booleanOption({
      help:
        "publish even when no manifest would be (by default such a build is refused: it " +
        "would answer 404 for every UMID)",
    }),
    ...MAX_PROBLEMS_OPTION,
    ...CACHE_OPTION,
    ...SARIF_OPTION,
  },
  async run(values) {
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
        const contentLog = await openContentLog(contentDir, cache && (await logStates(cache.dir)));
        const options = {
          allowEmpty: values["allow-empty"] === true,
          maxProblems: shown,
          cache,
          sarif,
          contentLog,
          log: await logOutputFiles(contentLog),
          signer,
        };
        const built = await reportingWriteErrors(outDir, async () => {
          const warm = await buildInto(contentDir, outDir, kv, options, settings, true);
          // A cold build never answers COLD.
          return warm === COLD
            ? (buildInto(contentDir, outDir, kv, options, settings, false) as Promise<Built | undefined>)
            : warm;
        });
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
  },
});

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

/** What a warm build answers when the previous output cannot be updated in place: the build is made cold. */
const COLD = Symbol("cold");

/**
 * Checks the content and writes it into staging folders as it goes (bodies, and KV pairs
 * when asked for, as each manifest is checked; the index at the end), then swaps them in;
 * on any error in the content, prints it and leaves every output as it was (undefined).
 * `warm`: when the output folder holds a previous output with its state, it is updated in
 * place instead (write/in-place.ts), writing only what changed; COLD when it cannot be.
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
    log: readonly OutputFile[];
    /** What signs the status lists (UM_STATUS_LIST_KEY), if anything. */
    signer: StatusListSigner | undefined;
  },
  settings: Settings,
  warm: boolean,
): Promise<Built | typeof COLD | undefined> {
  const stagingBeside = () => openStaging(outDir, BUILD_INFO_PATH);
  const inPlace = warm ? await InPlaceOutput.open(outDir, stagingBeside) : undefined;
  const staging = inPlace === undefined ? await stagingBeside() : undefined;
  let kvDir: string | undefined;
  let output: StaticOutput = { files: 0, largestFolder: 0 };
  const discard = async () => {
    inPlace?.discard();
    if (staging !== undefined) await discardStaging(staging);
  };
  try {
    const bodies = staging === undefined ? undefined : new BodyWriter(staging);
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
        if (inPlace !== undefined) {
          // An unchanged body is neither read nor written: the previous output holds it, which the plan's diff proves.
          const body = planBody(manifest, names, statuses, nextCheck);
          if (manifest.body.kind === "bytes") inPlace.stageBody(body.etag, manifest.body.bytes);
          bodyBytes += manifest.body.kind === "bytes" ? manifest.body.bytes.byteLength : manifest.body.stored.bytes;
          return true;
        }
        const bytes =
          manifest.body.kind === "bytes"
            ? manifest.body.bytes
            : recalledBody(cache!, manifest.umid, manifest.body.stored);
        if (bytes === undefined) return false;
        const body = planBody(manifest, names, statuses, nextCheck);
        bodies!.write(body.placed, bytes);
        bodyBytes += bytes.byteLength;
        return true;
      },
    }).finally(() => progress.stop());
    // As check judges it: a log (content/_log/) that does not verify, or does not record what this build would serve,
    // refuses the build (issue 26, section 3).
    appendAll(content.diagnostics, await logGateProblems(contentDir, contentLog?.opened, content));
    const wellKnown = await wellKnownFile(content, nextCheck, signer, content.resolversDocument, checking.now);
    if (signer === undefined && content.statusAllocation.lists.length > 0)
      content.diagnostics.push(
        diagnostic(
          "status-list/unsigned",
          { file: displayPath(join(contentDir, STATUS_FOLDER)) },
          `the status lists are published without a proof: set ${STATUS_LIST_KEY_VARIABLE} to sign them`,
        ),
      );
    const plan = planOutput(content, names, nextCheck, log, wellKnown);
    const passed = !hasErrors(content.diagnostics) && (content.published.length > 0 || allowEmpty);
    // Before anything is printed: a build made cold instead prints it all again.
    if (passed && inPlace !== undefined && !inPlace.prepare(plan.indexFiles())) {
      await discard();
      return COLD;
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
      await discard();
      return undefined;
    }
    const indexBytes =
      staging === undefined ? inPlace!.indexBytes : await writeFiles(staging, withState(plan.indexFiles(), new Map()));
    if (staging === undefined) inPlace!.commit();
    else await commitStaging(staging, outDir);
    // Each pair's value is the body the output now serves: changed or not, it is there.
    const kvFiles =
      kvDir === undefined
        ? 0
        : await writeKvOutput(kvDir, plan.kvShards(), outDir, plan.didDocuments, plan.log, plan.wellKnown);
    return {
      content,
      bodyFile: (umid) => names.fileOf(umid),
      bytes: bodyBytes + indexBytes,
      ...(kvDir !== undefined && { kvDir }),
      kvFiles,
      // A folder fuller than a uniform hash makes (UMIDs chosen to collide) is warned of as it is.
      hostWarnings: hostWarnings(
        { ...output, largestFolder: Math.max(output.largestFolder, bodies?.largestFolder() ?? 0) },
        { out: printable(outDir), kv: printable(kvOut.dir) },
        settings.limits.maxManifestBytes,
      ),
    };
  } catch (error) {
    await discard();
    throw error;
  }
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
