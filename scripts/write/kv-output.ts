/**
 * The Workers KV bulk files: one folder per bucket of 16 index shards, named by the first two
 * hex digits the shards' names share (`dist-kv/<xy>/kv-0001/kv-0000001.json`, …, by
 * kv-writer.ts), holding their UMIDs' pairs shard by shard, each in the index's order; and
 * `resolver-kv.json`, which marks the folder as one a build wrote and names its state in the
 * build's store (the cache's blob store): the digest of the inputs each bucket's files were
 * made from (its shards' digests: output-plan.ts), and how many files they are. The route table's
 * files (plan/routes.ts: its shards, every one of them, empty ones too, and each document it routes) are a pair each,
 * keyed by the file's name in the output, in a bucket per top folder of that name (`routes`, `documents`, `log`),
 * whose inputs are the files' names and bytes. A warm build
 * rewrites only the buckets whose inputs changed and removes those that went. Without a
 * state it can read (no store, or none holding it), it writes the whole folder beside the old one and swaps it in
 * (output.ts). While buckets are rewritten in place the marker names no state: a build killed then
 * leaves a folder the next build writes whole again, as a cold build would.
 *
 * Buckets rather than shards: a folder and its files cost about as much to create as a body,
 * and 256 buckets cost a cold build of 20,000 manifests a tenth of what 4,096 shards did,
 * while a change still rewrites a 256th of the pairs.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { utf8 } from "../../core/base64url.ts";
import { INDEX_FORMAT } from "../../edge/records.ts";
import type { OutputFile } from "../plan/output-file.ts";
import type { KvShard } from "../plan/output-plan.ts";
import { withEveryRouteShard } from "../plan/routes.ts";
import { writeAtomically } from "../store/atomic-write.ts";
import { type BlobStore, isSha256Hex } from "../store/blob-store.ts";
import { keepState, parsedJson, readState } from "../store/kept-state.ts";
import type { HeldBodies } from "./held-bodies.ts";
import { sweep } from "../store/sweep.ts";
import { KvWriter } from "./kv-writer.ts";
import { assertReplaceable, commitStaging, discardStaging, OutputError, openStaging } from "./output.ts";

/** What shows that a folder is an earlier KV output, safe to replace, and names its state. */
const KV_MARKER = "resolver-kv.json";
/**
 * What shows a folder is one to replace: its marker; the state an earlier version kept in the folder; or, before
 * folders had one, their first folder of files.
 */
const KV_MARKERS = [KV_MARKER, "kv-state.json", "kv-0001"];
/** 4: kept in the store, the folder's marker naming it; 3: the route table's buckets replaced `did` and `well-known`. */
const KV_STATE_FORMAT = 4;
/** An index bucket's two hex digits, or a top folder of the route table's files (plan/routes.ts). */
const BUCKET_NAME = /^(?:[0-9a-f]{2}|[a-z][a-z-]{2,})$/;

/** What made a bucket's files, and how many there are. */
interface BucketState {
  inputs: string;
  files: number;
}

/** A KV folder to write: where, the store that keeps its state, and the state it holds, if this build can use it. */
export class KvOutput {
  private constructor(
    readonly kvDir: string,
    private readonly store: BlobStore | undefined,
    private readonly previous: KvState | undefined,
  ) {}

  /**
   * The KV folder at `kvDir`, refused before a build writes anything when it is not one a build wrote (it would be
   * replaced). The store keeps the state it holds as recent: a build refused leaves the folder as it was.
   */
  static async open(kvDir: string, store: BlobStore | undefined): Promise<KvOutput> {
    await assertReplaceable(resolve(kvDir), KV_MARKERS);
    const previous = store && readKvState(kvDir, store);
    if (previous !== undefined) store?.keep(previous.blob);
    return new KvOutput(kvDir, store, previous);
  }

  /**
   * Writes the KV pairs of `shards`, and of the route table's files, each published UMID's value the body `held` holds
   * under its digest, else read from the file the output `outDir` serves it from; returns the number of bulk files the
   * folder holds.
   */
  async write(
    shards: Iterable<KvShard>,
    outDir: string,
    routed: readonly OutputFile[],
    held: HeldBodies,
  ): Promise<number> {
    const { kvDir, store, previous } = this;
    const bodyOf = (source: { file: string; digest: Uint8Array }) =>
      held.get(source.digest) ?? servedBody(outDir, source);
    const buckets = [...bucketsOf(shards, bodyOf), ...routedBuckets(withEveryRouteShard(routed))];
    if (previous === undefined) {
      const staging = await openStaging(kvDir, KV_MARKERS);
      try {
        const states = new Map<string, BucketState>();
        for (const bucket of buckets) states.set(bucket.name, await writeBucket(staging, bucket));
        writeMarker(staging, keepState(store, stateBlob(states)));
        await commitStaging(staging, kvDir);
        return fileCount(states);
      } catch (error) {
        await discardStaging(staging);
        throw error;
      }
    }
    // A marker a killed build was writing is no part of the folder.
    sweep(kvDir, { locked: true });
    const changed = new Set(buckets.filter((bucket) => previous.buckets.get(bucket.name)?.inputs !== bucket.inputs));
    const names = new Set(buckets.map((bucket) => bucket.name));
    const gone = [...previous.buckets.keys()].filter((name) => !names.has(name));
    // No bucket to rewrite: the folder is as its marker says throughout, and the state is only kept in the store.
    const updating = changed.size > 0 || gone.length > 0;
    if (updating) writeMarker(kvDir, null);
    const states = new Map<string, BucketState>();
    for (const bucket of buckets) {
      if (!changed.has(bucket)) states.set(bucket.name, previous.buckets.get(bucket.name)!);
      else {
        rmSync(join(kvDir, bucket.name), { recursive: true, force: true });
        states.set(bucket.name, await writeBucket(kvDir, bucket));
      }
    }
    for (const name of gone) rmSync(join(kvDir, name), { recursive: true, force: true });
    const state = keepState(store, stateBlob(states));
    if (updating || state !== previous.digest) writeMarker(kvDir, state);
    return fileCount(states);
  }
}

/** A folder of bulk files: its name, the digest of its inputs, and how its pairs are written. */
interface Bucket {
  name: string;
  inputs: string;
  write(writer: KvWriter): Promise<void>;
}

/** Shards gathered into the buckets of their first two hex digits, each in shard order, with its inputs' digest. */
function bucketsOf(
  shards: Iterable<KvShard>,
  bodyOf: (source: { file: string; digest: Uint8Array }) => Uint8Array,
): Bucket[] {
  const byName = new Map<string, KvShard[]>();
  for (const shard of shards) {
    const name = shard.shard.slice(0, 2);
    const bucket = byName.get(name);
    if (bucket === undefined) byName.set(name, [shard]);
    else bucket.push(shard);
  }
  return [...byName].map(([name, members]) => {
    members.sort((a, b) => (a.shard < b.shard ? -1 : 1));
    const inputs = createHash("sha256")
      .update(members.map(({ shard, inputs }) => `${shard}:${inputs}`).join("\n"))
      .digest("hex");
    const write = async (writer: KvWriter) => {
      for (const shard of members)
        for (const source of shard.sources()) {
          if ("file" in source) await writer.manifest(source.umid, bodyOf(source), source.etag, source.status);
          else if ("redirect" in source) await writer.redirect(source.umid, source.redirect);
          else await writer.revoked(source.umid, source.revoked);
        }
    };
    return { name, inputs, write };
  });
}

/**
 * The route table's files, a pair each, in a bucket per top folder of their names (plan/routes.ts names none with two
 * hex digits, an index bucket's): their names and bytes are all they are made from.
 */
function routedBuckets(files: readonly OutputFile[]): Bucket[] {
  const byFolder = new Map<string, OutputFile[]>();
  for (const file of files) {
    const folder = file.path.slice(0, file.path.indexOf("/"));
    if (!BUCKET_NAME.test(folder) || /^[0-9a-f]{2}$/.test(folder))
      throw new Error(`a routed file is stored outside a folder of its own: ${file.path}`);
    const bucket = byFolder.get(folder);
    if (bucket === undefined) byFolder.set(folder, [file]);
    else bucket.push(file);
  }
  return [...byFolder].map(([name, members]) => {
    const inputs = createHash("sha256");
    for (const { path, bytes } of members) inputs.update(`${path}\0${bytes.byteLength}\0`).update(bytes);
    return {
      name,
      inputs: inputs.digest("hex"),
      write: async (writer: KvWriter) => {
        for (const { path, bytes } of members) writer.file(path, bytes);
      },
    };
  });
}

async function writeBucket(kvDir: string, bucket: Bucket): Promise<BucketState> {
  const writer = new KvWriter(join(kvDir, bucket.name));
  await bucket.write(writer);
  return { inputs: bucket.inputs, files: writer.finish() };
}

/**
 * The body the output serves from `file`, if it is still the one its record names: a warm build does not read the
 * bodies it leaves in place, and a value must never be what someone put there since.
 */
function servedBody(outDir: string, { file, digest }: { file: string; digest: Uint8Array }): Uint8Array {
  const path = join(outDir, file);
  const bytes = readFileSync(path);
  if (!createHash("sha256").update(bytes).digest().equals(digest))
    throw new OutputError(
      `${path} is not the body its record names: it changed after a build wrote it. Remove ${outDir} and build again`,
    );
  return bytes;
}

function fileCount(states: ReadonlyMap<string, BucketState>): number {
  let files = 0;
  for (const { files: n } of states.values()) files += n;
  return files;
}

/** The folder's state: each bucket's inputs and files, in the buckets' order. */
function stateBlob(states: ReadonlyMap<string, BucketState>): Uint8Array {
  const lines = [...states].map(
    ([bucket, { inputs, files }]) => `${JSON.stringify(bucket)}:${JSON.stringify([inputs, files])}`,
  );
  return utf8(`{"format":${KV_STATE_FORMAT},"index":${INDEX_FORMAT},"buckets":{\n${lines.join(",\n")}\n}}\n`);
}

/**
 * Marks the folder as a build's, naming its state (`null` while buckets are rewritten in place). Written whole by the
 * one atomic writer: a reader finds the old marker or the new.
 */
function writeMarker(kvDir: string, state: string | null): void {
  writeAtomically(join(kvDir, KV_MARKER), `${JSON.stringify({ format: KV_STATE_FORMAT, state })}\n`);
}

/** A KV folder's state as the store keeps it: its digest and bytes, and each bucket's state. */
interface KvState {
  digest: string;
  blob: Uint8Array;
  buckets: Map<string, BucketState>;
}

/**
 * The buckets' states the folder's marker names in `store`; undefined when there is none this build can use: no
 * folder or marker, another format, a state the store lacks, one that could name a path outside the folder, or an
 * update that never finished.
 */
function readKvState(kvDir: string, store: BlobStore): KvState | undefined {
  let marker: unknown;
  try {
    marker = parsedJson(readFileSync(join(kvDir, KV_MARKER)));
  } catch {
    return undefined;
  }
  const { format: markerFormat, state: digest } = (marker ?? {}) as Record<string, unknown>;
  if (markerFormat !== KV_STATE_FORMAT || !isSha256Hex(digest)) return undefined;
  const state = readState(store, digest);
  if (state === undefined) return undefined;
  const { format, index, buckets } = (state.value ?? {}) as Record<string, unknown>;
  if (format !== KV_STATE_FORMAT || index !== INDEX_FORMAT) return undefined;
  if (typeof buckets !== "object" || buckets === null) return undefined;
  const states = new Map<string, BucketState>();
  for (const [bucket, kept] of Object.entries(buckets)) {
    if (!BUCKET_NAME.test(bucket) || !Array.isArray(kept) || kept.length !== 2) return undefined;
    const [inputs, files] = kept as unknown[];
    if (!isSha256Hex(inputs) || !Number.isSafeInteger(files)) return undefined;
    states.set(bucket, { inputs, files: files as number });
  }
  return { digest, blob: state.blob, buckets: states };
}
