/**
 * The plan of a build's output, from the checked content: every body's file and ETag (the
 * names planned as bodies arrived: body-names.ts), the status each UMID is served with,
 * the record index that the edge reads, and the Workers KV records. It is data, made on
 * demand: the index is produced one shard at a time, so that a million records are never
 * held as text at once, and the same content always gives the same plan, byte for byte.
 */
import { utf8 } from "../../core/base64url.ts";
import { BUILD_INFO_PATH, INDEX_FORMAT, shardPath, type RecordEntry, type StatusEntry } from "../../edge/records.ts";
import { formatEtag } from "../../edge/etag.ts";
import type { ContentCheck } from "../check/check-content.ts";
import type { ValidManifest } from "../check/checked-manifest.ts";
import type { RouteStatus } from "../check/routes.ts";
import type { BodyNames, Placement } from "./body-names.ts";
import type { OutputFile } from "./output-file.ts";
import { publishedStatus, revokedStatus, withEtag } from "./statuses.ts";

/** A Workers KV pair of a UMID served without a body: a redirect, or a revocation. */
export type KvRoute = { umid: string; redirect: string } | { umid: string; revoked: StatusEntry };

export interface OutputPlan {
  /** The files of the record index and the build info, one at a time, in a stable order. */
  indexFiles(): Iterable<OutputFile>;
  /** The KV pairs of the UMIDs answered without a body (those with one go with their bodies). */
  kvRoutes(): Iterable<KvRoute>;
}

/** A body's plan as it is handed over: where it goes (and what moves first), its ETag, and its status. */
export interface PlacedBody {
  placed: Placement;
  etag: string;
  status: StatusEntry;
}

/** Plans one manifest's body as the check hands it over, so that the writer can put it in place at once. */
export function planBody(
  manifest: ValidManifest,
  names: BodyNames,
  statuses: ReadonlyMap<string, RouteStatus>,
  nextCheck: string,
): PlacedBody {
  return {
    placed: names.add(manifest.umid),
    etag: formatEtag(manifest.digest),
    status: publishedStatus(manifest.issuedAt, statuses.get(manifest.umid), nextCheck),
  };
}

export function planOutput(content: ContentCheck, names: BodyNames, nextCheck: string): OutputPlan {
  return {
    indexFiles: () => indexFiles(content, names, nextCheck),
    *kvRoutes() {
      for (const [umid, redirect] of content.redirects) yield { umid, redirect };
      for (const umid of content.revoked) yield { umid, revoked: revokedStatus(content.statuses.get(umid), nextCheck) };
    },
  };
}

/**
 * The record index, one shard at a time (one record per line, in UMID order), then the
 * build info. Records depend only on the content: identical content, identical bytes.
 */
function* indexFiles(content: ContentCheck, names: BodyNames, nextCheck: string): Iterable<OutputFile> {
  const { published, statuses } = content;
  const redirects = [...content.redirects];
  const revoked = [...content.revoked];
  const umidAt = (i: number) =>
    i < published.length
      ? published.umidAt(i)
      : i < published.length + redirects.length
        ? redirects[i - published.length]![0]
        : revoked[i - published.length - redirects.length]!;
  const entryAt = (i: number): RecordEntry => {
    const umid = umidAt(i);
    if (i < published.length) {
      return {
        file: names.fileOf(umid),
        etag: formatEtag(published.digestBytesAt(i)),
        status: withEtag(umid, publishedStatus(published.issuedAt(i), statuses.get(umid), nextCheck)),
      };
    }
    if (i < published.length + redirects.length) return { redirect: redirects[i - published.length]![1] };
    return { revoked: true, status: withEtag(umid, revokedStatus(statuses.get(umid), nextCheck)) };
  };
  const shards = new Map<string, number[]>();
  const total = published.length + redirects.length + revoked.length;
  for (let i = 0; i < total; i++) {
    const path = shardPath(umidAt(i));
    const members = shards.get(path);
    if (members === undefined) shards.set(path, [i]);
    else members.push(i);
  }
  for (const [path, members] of shards) {
    const lines = members
      .map((i) => [umidAt(i), i] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([umid, i]) => `${JSON.stringify(umid)}:${JSON.stringify(entryAt(i))}`);
    yield { path, bytes: utf8(`{"format":${INDEX_FORMAT},"records":{\n${lines.join(",\n")}\n}}\n`) };
  }
  const info = {
    format: INDEX_FORMAT,
    manifests: published.length,
    redirects: redirects.length,
    revoked: revoked.length,
  };
  yield { path: BUILD_INFO_PATH, bytes: utf8(`${JSON.stringify(info, null, 2)}\n`) };
}
