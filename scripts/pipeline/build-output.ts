/**
 * The build, stage after stage: the content checked (scripts/check/), the log's gate
 * (scripts/log/log-gate.ts), the plan (scripts/plan/), then the output staged and put in
 * place (scripts/write/output-update.ts) and the Workers KV bulk files written. The check
 * hands each manifest to publish over as it goes, so that the bodies checked anew are staged
 * at once and no build holds a million of them. On any error in the content, every output
 * is left as it was.
 */
import { join } from "node:path";
import { appendAll } from "../../core/append-all.ts";
import { etagSha256, formatEtag } from "../../edge/etag.ts";
import type { VerificationCache } from "../cache/verification-cache.ts";
import { checkContent, type ContentCheck } from "../check/check-content.ts";
import type { PublishedManifests } from "../check/published.ts";
import { STATUS_FOLDER } from "../check/status-allocation.ts";
import type { Settings } from "../config.ts";
import { STATUS_LIST_KEY_VARIABLE, type StatusListSigner } from "../crypto/status-list-key.ts";
import type { ContentLog } from "../log/log-folder.ts";
import { logGateProblems } from "../log/log-gate.ts";
import { BodyNames } from "../plan/body-names.ts";
import { hostWarnings, type StaticOutput, staticOutput, writesKv } from "../plan/host-limits.ts";
import { planOutput } from "../plan/output-plan.ts";
import type { Route } from "../plan/routes.ts";
import { wellKnownRoutes } from "../plan/status-lists.ts";
import { displayPath } from "../read/files.ts";
import { diagnostic, hasErrors, printable, summarize } from "../report/diagnostics.ts";
import { HeldBodies } from "../write/held-bodies.ts";
import { KvOutput } from "../write/kv-output.ts";
import { OutputUpdate, type PublishedBodies } from "../write/output-update.ts";
import { recalledBody } from "./kept-bodies.ts";

/** What a build is asked to do. */
export interface BuildRequest {
  contentDir: string;
  outDir: string;
  /** The Workers KV bulk files' folder, and whether they were asked for (else written only when a host needs them). */
  kv: { dir: string; asked: boolean };
  allowEmpty: boolean;
  cache: VerificationCache | undefined;
  /** The content's transparency log, opened: the gate's to judge (scripts/log/log-gate.ts). */
  contentLog: ContentLog | undefined;
  /** The transparency log's files to serve (scripts/log/log-output.ts). */
  log: readonly Route[];
  /** What signs the status lists (UM_STATUS_LIST_KEY), if anything. */
  signer: StatusListSigner | undefined;
  settings: Settings;
  /** Told of each manifest checked, for a progress line. */
  progress?: (checked: number, total: number) => void;
}

/**
 * What a build made: the bytes written, its KV bulk files if any, and what it warns of hosts' limits.
 */
export interface Built {
  /** The file of a UMID's body, relative to the output folder. */
  bodyFile(umid: string): string;
  /** Bodies this build checked, held for what is written after the output (held-bodies.ts). */
  held: HeldBodies;
  bytes: number;
  kvDir?: string;
  kvFiles: number;
  hostWarnings: string[];
}

/** The content's check, with what was built, or why nothing was (every output then left as it was). */
export type BuildOutcome = { content: ContentCheck } & ({ built: Built } | { refusal: string });

export async function buildOutput({
  contentDir,
  outDir,
  kv: kvOut,
  allowEmpty,
  cache,
  contentLog,
  log,
  signer,
  settings,
  progress,
}: BuildRequest): Promise<BuildOutcome> {
  const update = await OutputUpdate.open(outDir, cache?.blobs);
  let kvOutput: KvOutput | undefined;
  let output: StaticOutput = { files: 0, largestFolder: 0 };
  try {
    // The bytes of every body published: what the output holds, whatever this build writes of it.
    let bodyBytes = 0;
    const nextCheck = settings.statusNextCheck;
    const now = new Date();
    const names = new BodyNames();
    let held = new HeldBodies(0);
    const content = await checkContent(
      contentDir,
      { settings, now, strict: false, ...(progress && { progress }), ...(cache && { cache }) },
      {
        outline: async (outline) => {
          // Hosts count files, not manifests: decided on what the output holds at most.
          output = staticOutput({ ...outline, logFiles: log.length });
          held = HeldBodies.forBuild(outline.manifestFiles);
          if (kvOut.asked || writesKv(output)) kvOutput = await KvOutput.open(kvOut.dir, cache?.blobs);
        },
        publish: async (manifest) => {
          // An unchanged body is neither read nor written in place: the previous output holds it, which the plan's
          // diff proves (or the update has it from the cache's store or its file: output-update.ts).
          const body =
            manifest.body.kind === "bytes"
              ? manifest.body.bytes
              : update.inPlace
                ? undefined
                : recalledBody(cache!, manifest.umid, manifest.body.stored.digest);
          if (body === undefined && !update.inPlace) return false;
          update.stage(names.add(manifest.umid), body);
          if (manifest.body.kind === "bytes") held.hold(manifest.digest, manifest.body.bytes);
          bodyBytes += manifest.body.kind === "bytes" ? manifest.body.bytes.byteLength : manifest.body.stored.bytes;
          return true;
        },
      },
    );
    // As check judges it: a log (content/_log/) that does not verify, or does not record what this build would serve,
    // refuses the build (issue 26, section 3).
    appendAll(content.diagnostics, await logGateProblems(contentDir, contentLog?.opened, content));
    const wellKnown = await wellKnownRoutes(content, nextCheck, signer, content.resolversDocument, now);
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
      const prepared = await update.prepare(plan, publishedBodies(content.published, names), bodyOf);
      // A body had from nowhere is a file changed since it was checked (file/changed, above): never a green build.
      if (!prepared && !hasErrors(content.diagnostics))
        throw new Error("a body the output needs came from neither the cache nor its file, and no problem says why");
    }
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
      await update.discard();
      return { content, refusal };
    }
    await update.commit();
    // Each pair's value is the body the output now serves: changed or not, it is there.
    const kvFiles = (await kvOutput?.write(plan.kvShards(), outDir, plan.routed, held)) ?? 0;
    return {
      content,
      built: {
        bodyFile: (umid) => names.fileOf(umid),
        held,
        bytes: bodyBytes + update.indexBytes,
        ...(kvOutput !== undefined && { kvDir: kvOutput.kvDir }),
        kvFiles,
        // A folder fuller than a uniform hash makes (UMIDs chosen to collide) is warned of as it is.
        hostWarnings: hostWarnings(
          { ...output, largestFolder: Math.max(output.largestFolder, update.largestFolder()) },
          { out: printable(outDir), kv: printable(kvOut.dir) },
          settings.limits.maxManifestBytes,
        ),
      },
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
