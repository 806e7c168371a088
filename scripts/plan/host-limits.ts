/**
 * The hosts' limits, and what the build does about them. Hosts count files, not
 * manifests: the static output holds one body per manifest, up to 4,096 index shards and
 * `resolver.json`, so 20,000 manifests are about 24,000 files. The limits (docs/hosts.md,
 * "Host limits"; ../shared/notes/platforms.md):
 * - Cloudflare Workers Static Assets: 20,000 files per Worker version on the free plan,
 *   100,000 on Workers Paid; 25 MiB per file
 *   (https://developers.cloudflare.com/workers/platform/limits/);
 * - Workers KV: keys of 512 bytes, 1,024 bytes of metadata, values of 25 MiB
 *   (https://developers.cloudflare.com/kv/platform/limits/);
 * - Netlify: no limit on a deploy's files, but a deploy fails when one folder holds more
 *   than 54,000 (https://docs.netlify.com/site-deploys/overview/, "Files per directory
 *   limit"). Netlify documents no size limit for a static file.
 * The build decides before checking (bodies are written as they are checked), so it counts
 * what the output holds at most: every manifest file published, every record in a shard
 * of its own. No folder grows past 4,096 entries with the registry: bodies fan out over
 * 4,096 folders by a hash of their UMIDs (scripts/plan/body-names.ts), so Netlify's limit
 * is out of reach up to some 15 million manifests, unless UMIDs were chosen to collide: the
 * build then counts the bodies it wrote in each folder, and warns of the fullest.
 */
import { BUILD_INFO_PATH, INDEX_SHARDS } from "../../edge/records.ts";
import { grouped, size } from "../report/human-units.ts";

/**
 * Cloudflare Workers Static Assets: files per Worker version on the free plan; past it the build writes Workers KV
 * bulk files.
 */
export const CLOUDFLARE_FREE_FILES = 20_000;
/** Cloudflare Workers Static Assets: files per Worker version on Workers Paid. */
const CLOUDFLARE_PAID_FILES = 100_000;
/** Cloudflare: the largest static asset, and the largest Workers KV value. */
export const CLOUDFLARE_MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Netlify: files in one folder of a deploy; a deploy with more fails. */
const NETLIFY_FOLDER_FILES = 54_000;
/** The share of a limit from which the build warns that the output nears it. */
const NEAR_LIMIT = 0.9;

/** The files the output holds besides bodies and index shards (and the did:web documents' table, when published). */
const FIXED_FILES = [BUILD_INFO_PATH].length;

/**
 * What the content about to be built holds: its manifest files, the entries of `_routes.json`, whether it
 * publishes did:web documents (one, or a few), and the files of its transparency log (in folders of at most 1,001
 * names: scripts/log/log-output.ts). A document served beside the manifests is a file of the output and a row of the
 * route table (plan/routes.ts), whose shards are up to 4,096 more files.
 */
export interface ContentCounts {
  manifestFiles: number;
  redirects: number;
  revoked: number;
  didDocuments?: boolean;
  logFiles?: number;
}

/** The static output's size as hosts count it: at most this many files in all, and in one folder. */
export interface StaticOutput {
  files: number;
  largestFolder: number;
}

/**
 * At most what the static output of `content` holds. A manifest file that fails, is
 * withheld or is a duplicate writes no body, and records that share a shard share its file:
 * the output holds these many files exactly when neither happens.
 */
export function staticOutput({
  manifestFiles,
  redirects,
  revoked,
  didDocuments,
  logFiles = 0,
}: ContentCounts): StaticOutput {
  const shards = Math.min(INDEX_SHARDS, manifestFiles + redirects + revoked);
  const routed = (didDocuments === true ? 1 : 0) + logFiles;
  // Shards go to index/, and m/ (or h/) holds at most a body folder per shard; the root holds resolver.json and those
  // folders.
  return {
    files: manifestFiles + shards + FIXED_FILES + routed + Math.min(INDEX_SHARDS, routed),
    largestFolder: Math.max(shards, fullestBodyFolder(manifestFiles)),
  };
}

/**
 * The bodies of the fullest of the 4,096 body folders, for `bodies` spread by a uniform hash: each folder's count is
 * about Poisson, of mean bodies / 4,096, and all 4,096 stay under mean + 6 standard deviations but with odds below
 * one in ten thousand (the 6 more cover small means, whose tail is longer than a normal one's). At 10 million
 * manifests: 2,744, against 2,627 measured on generated UMIDs.
 */
export function fullestBodyFolder(bodies: number): number {
  const mean = bodies / INDEX_SHARDS;
  return Math.min(bodies, Math.ceil(mean + 6 * Math.sqrt(mean) + 6));
}

/**
 * Whether the build writes Workers KV bulk files without being asked: when the static output could exceed
 * Cloudflare's free plan.
 */
export function writesKv(output: StaticOutput): boolean {
  return output.files > CLOUDFLARE_FREE_FILES;
}

/**
 * What to warn of before an output crosses a host's limit: one line per host it nears
 * (from `NEAR_LIMIT` of the limit) or exceeds, each naming the host, the limit, the count
 * and what to do. `dirs` are the output and KV folders as the build prints them;
 * `maxManifestBytes` is UM_MAX_MANIFEST_BYTES, the largest body.
 */
export function hostWarnings(
  output: StaticOutput,
  dirs: { out: string; kv: string },
  maxManifestBytes: number,
): string[] {
  const warnings: string[] = [];
  const files = `${dirs.out}/ will hold up to ${grouped(output.files)} files`;
  const kv = `Workers KV (the bulk files in ${dirs.kv}/; docs/hosts.md)`;
  const cloudflare = (limit: number, plan: string) =>
    `Cloudflare's ${plan} limit of ${grouped(limit)} static files per Worker version`;
  if (output.files > CLOUDFLARE_PAID_FILES) {
    warnings.push(
      `${files}, over ${cloudflare(CLOUDFLARE_PAID_FILES, "Workers Paid")}: on ` +
        `Cloudflare, deploy the Worker with ${kv}`,
    );
  } else if (near(output.files, CLOUDFLARE_PAID_FILES)) {
    warnings.push(
      `${files}, ${share(output.files, CLOUDFLARE_PAID_FILES)} of ` +
        `${cloudflare(CLOUDFLARE_PAID_FILES, "Workers Paid")}; past it, only the Worker ` +
        `with ${kv} serves this content on Cloudflare`,
    );
  } else if (output.files > CLOUDFLARE_FREE_FILES) {
    warnings.push(
      `${files}, over ${cloudflare(CLOUDFLARE_FREE_FILES, "free-plan")}: on ` +
        `Cloudflare, deploy the Worker with ${kv}, or use Workers Paid ` +
        `(${grouped(CLOUDFLARE_PAID_FILES)} files)`,
    );
  } else if (near(output.files, CLOUDFLARE_FREE_FILES)) {
    warnings.push(
      `${files}, ${share(output.files, CLOUDFLARE_FREE_FILES)} of ` +
        `${cloudflare(CLOUDFLARE_FREE_FILES, "free-plan")}; past it the build also ` +
        `writes Workers KV bulk files to ${dirs.kv}/, for a Worker that reads its ` +
        `records from KV (docs/hosts.md)`,
    );
  }
  const folder = `one folder of ${dirs.out}/ will hold up to ${grouped(output.largestFolder)} files`;
  const netlify = `Netlify's limit of ${grouped(NETLIFY_FOLDER_FILES)} files in one folder`;
  if (output.largestFolder > NETLIFY_FOLDER_FILES) {
    warnings.push(`${folder}, over ${netlify}: Netlify fails the deploy; serve it from Cloudflare, with ${kv}`);
  } else if (near(output.largestFolder, NETLIFY_FOLDER_FILES)) {
    warnings.push(
      `${folder}, ${share(output.largestFolder, NETLIFY_FOLDER_FILES)} of ${netlify}; ` +
        `past it Netlify fails the deploy, and only Cloudflare, with ${kv}, serves this ` +
        `content`,
    );
  }
  if (maxManifestBytes > CLOUDFLARE_MAX_FILE_BYTES) {
    warnings.push(
      `UM_MAX_MANIFEST_BYTES is ${grouped(maxManifestBytes)} ` +
        `(${size(maxManifestBytes)}): Cloudflare refuses a static file or a Workers KV ` +
        `value over ${size(CLOUDFLARE_MAX_FILE_BYTES)}, so a manifest that large cannot ` +
        `be served there; set it to at most ${grouped(CLOUDFLARE_MAX_FILE_BYTES)} to ` +
        `deploy there`,
    );
  }
  return warnings;
}

function near(n: number, limit: number): boolean {
  return n >= NEAR_LIMIT * limit;
}

function share(n: number, limit: number): string {
  return `${Math.floor((100 * n) / limit)}%`;
}
