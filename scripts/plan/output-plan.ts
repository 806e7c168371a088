/**
 * The plan of a build's output, from the checked content: every body's file and ETag (the
 * names planned as bodies arrived: body-names.ts), the status each UMID is served with,
 * the record index that the edge reads, the route table of every other document it serves (routes.ts: the did:web
 * documents, did-documents.ts, and the routes the build hands over: the status lists and discovery document,
 * status-lists.ts, the transparency log's files, scripts/log/log-output.ts) and the Workers KV records. It is
 * data, made on demand: the index is produced one shard at a time, so that a million records
 * are never held as text at once, and the same content always gives the same plan, byte for
 * byte.
 */
import { hash } from "node:crypto";
import { utf8 } from "../../core/base64url.ts";
import { toolIdentity } from "../cache/tool-identity.ts";
import { INDEX_FORMAT, shardPath, type RecordEntry, type StatusEntry } from "../../edge/records.ts";
import { shardOf } from "../../edge/shard-file.ts";
import { formatEtag } from "../../edge/etag.ts";
import type { ContentCheck } from "../check/check-content.ts";
import type { BodyNames } from "./body-names.ts";
import type { Counts } from "./build-info.ts";
import { didDocumentRoutes } from "./did-documents.ts";
import type { OutputFile } from "./output-file.ts";
import { type Route, routeFiles } from "./routes.ts";
import { publishedStatus, revokedStatus, withEtag } from "./statuses.ts";

/** A Workers KV pair of a UMID served without a body: a redirect, or a revocation. */
export type KvRoute = { umid: string; redirect: string } | { umid: string; revoked: StatusEntry };

/** A Workers KV pair's source: a published UMID's body (the file it is served from), a redirect or a revocation. */
export type KvSource = { umid: string; file: string; digest: Uint8Array; etag: string; status: StatusEntry } | KvRoute;

/** One index shard's Workers KV pairs: the shard's name, the digest of all they are made from, and their sources. */
export interface KvShard {
  shard: string;
  inputs: string;
  /** In UMID order, as the shard's records are. */
  sources(): Iterable<KvSource>;
}

export interface OutputPlan {
  /** The files of the record index and the route table's files, one at a time, in stable order. */
  indexFiles(): Iterable<OutputFile>;
  /** What the output answers for, which the build info (build-info.ts) says. */
  counts: Counts;
  /** The Workers KV pairs, shard by shard, in the index's order. */
  kvShards(): Iterable<KvShard>;
  /** The route table's files (routes.ts): each document's stored file, then the table's shards; each also a KV pair. */
  routed: readonly OutputFile[];
}

/** `routes`: the documents to serve that the build made besides the content's own (its did:web documents). */
export function planOutput(
  content: ContentCheck,
  names: BodyNames,
  nextCheck: string,
  routes: readonly Route[] = [],
): OutputPlan {
  let shards: Shards | undefined;
  const shardsOnce = () => {
    shards ??= shardsOf(content, names, nextCheck);
    return shards;
  };
  const routed = routeFiles([...didDocumentRoutes(content.didDocuments), ...routes]);
  return {
    indexFiles: () => indexFiles(shardsOnce(), routed),
    counts: {
      manifests: content.published.length,
      redirects: content.redirects.size,
      revoked: content.revoked.size,
    },
    kvShards: () => kvShards(shardsOnce()),
    routed,
  };
}

/** The UMIDs the output answers for, by index shard: how to make each one's record, KV pair and inputs. */
interface Shards {
  /** Each shard's name and its members' numbers, in UMID order. */
  members: [string, number[]][];
  umidAt(i: number): string;
  entryAt(i: number): RecordEntry;
  kvSourceAt(i: number): KvSource;
  /** The digest of all a shard's records are made from (the index and KV ask alike: made once). */
  inputsOf(shard: string): string;
}

/**
 * The record index, one shard at a time (one record per line, in UMID order), then the route table's files. Records
 * depend only on the content: identical content, identical bytes.
 */
function* indexFiles(shards: Shards, routed: readonly OutputFile[]): Iterable<OutputFile> {
  const { umidAt, entryAt } = shards;
  for (const [shard, sorted] of shards.members) {
    let bytes: Uint8Array | undefined;
    yield {
      path: shardPath(umidAt(sorted[0]!)),
      inputs: shards.inputsOf(shard),
      get bytes() {
        bytes ??= utf8(
          `{"format":${INDEX_FORMAT},"records":{\n${sorted
            .map((i) => `${JSON.stringify(umidAt(i))}:${JSON.stringify(entryAt(i))}`)
            .join(",\n")}\n}}\n`,
        );
        return bytes;
      },
    };
  }
  yield* routed;
}

function* kvShards(shards: Shards): Iterable<KvShard> {
  for (const [shard, sorted] of shards.members)
    yield { shard, inputs: shards.inputsOf(shard), sources: () => sorted.map(shards.kvSourceAt) };
}

function shardsOf(content: ContentCheck, names: BodyNames, nextCheck: string): Shards {
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
  const kvSourceAt = (i: number): KvSource => {
    const umid = umidAt(i);
    if (i < published.length)
      return {
        umid,
        file: names.fileOf(umid),
        digest: published.digestBytesAt(i),
        etag: formatEtag(published.digestBytesAt(i)),
        status: publishedStatus(published.issuedAt(i), statuses.get(umid), nextCheck),
      };
    if (i < published.length + redirects.length) return { umid, redirect: redirects[i - published.length]![1] };
    return { umid, revoked: revokedStatus(statuses.get(umid), nextCheck) };
  };
  const byShard = new Map<string, number[]>();
  const total = published.length + redirects.length + revoked.length;
  for (let i = 0; i < total; i++) {
    const shard = shardOf(umidAt(i));
    const members = byShard.get(shard);
    if (members === undefined) byShard.set(shard, [i]);
    else members.push(i);
  }
  /** All a record is made from, as text: cheap, where the record itself costs a status document and its digest. */
  const inputsAt = (i: number): string => {
    const umid = umidAt(i);
    const route = statuses.get(umid);
    const status = route && [route.list, route.at, route.reason];
    if (i < published.length)
      return JSON.stringify([umid, names.fileOf(umid), published.digestAt(i), published.issuedAt(i), status]);
    if (i < published.length + redirects.length) return JSON.stringify([umid, redirects[i - published.length]![1]]);
    return JSON.stringify([umid, status]);
  };
  // The same inputs make the same shard only with the same code and settings.
  const seed = `${toolIdentity()}\0${INDEX_FORMAT}\0${nextCheck}\0`;
  const members: [string, number[]][] = [...byShard].map(([shard, indices]) => [
    shard,
    indices
      .map((i) => [umidAt(i), i] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, i]) => i),
  ]);
  const sortedOf = new Map(members);
  const digests = new Map<string, string>();
  return {
    members,
    umidAt,
    entryAt,
    kvSourceAt,
    inputsOf: (shard) => {
      let inputs = digests.get(shard);
      if (inputs === undefined) {
        inputs = hash("sha256", seed + sortedOf.get(shard)!.map(inputsAt).join("\n"), "hex");
        digests.set(shard, inputs);
      }
      return inputs;
    },
  };
}
