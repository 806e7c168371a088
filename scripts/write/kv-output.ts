/**
 * The Workers KV bulk files: one folder per bucket of 16 index shards, named by the first two
 * hex digits the shards' names share (`dist-kv/<xy>/kv-0001/kv-0000001.json`, …, by
 * kv-writer.ts), holding their UMIDs' pairs shard by shard, each in the index's order; and
 * `kv-state.json`, which names the digest of the inputs each bucket's files were made from
 * (its shards' digests: output-plan.ts), and how many files they are. The route table's
 * files (plan/routes.ts: its shards, every one of them, empty ones too, and each document it routes) are a pair each,
 * keyed by the file's name in the output, in a bucket per top folder of that name (`routes`, `documents`, `log`),
 * whose inputs are the files' names and bytes. A warm build
 * rewrites only the buckets whose inputs changed and removes those that went. Without a
 * state it can read, it writes the whole folder beside the old one and swaps it in (output.ts). While
 * buckets are rewritten in place the state says `"updating": true`: a build killed then
 * leaves a folder the next build writes whole again, as a cold build would.
 *
 * Buckets rather than shards: a folder and its files cost about as much to create as a body,
 * and 256 buckets cost a cold build of 20,000 manifests a tenth of what 4,096 shards did,
 * while a change still rewrites a 256th of the pairs.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { INDEX_FORMAT } from "../../edge/records.ts";
import type { OutputFile } from "../plan/output-file.ts";
import type { KvShard } from "../plan/output-plan.ts";
import { withEveryRouteShard } from "../plan/routes.ts";
import { writeAtomically } from "../store/atomic-write.ts";
import { sweep } from "../store/sweep.ts";
import { KvWriter } from "./kv-writer.ts";
import { assertReplaceable, commitStaging, discardStaging, OutputError, openStaging } from "./output.ts";

/** The state of a KV folder; also what shows that a folder is an earlier KV output, safe to replace. */
const KV_STATE = "kv-state.json";
/** What shows a folder is one to replace: its state, or, before folders had one, their first folder of files. */
const KV_MARKERS = [KV_STATE, "kv-0001"];
/** 3: the route table's buckets replaced the tables' `did` and `well-known`. */
const KV_STATE_FORMAT = 3;
/** An index bucket's two hex digits, or a top folder of the route table's files (plan/routes.ts). */
const BUCKET_NAME = /^(?:[0-9a-f]{2}|[a-z][a-z-]{2,})$/;

/** What made a bucket's files, and how many there are. */
interface BucketState {
  inputs: string;
  files: number;
}

/** Refuses, before a build writes anything, a KV folder that is not one a build wrote: it would be replaced. */
export async function assertKvFolder(kvDir: string): Promise<void> {
  await assertReplaceable(resolve(kvDir), KV_MARKERS);
}

/**
 * Writes the KV pairs of `shards`, and of the route table's files, into `kvDir`, each published UMID's value read from
 * the file the output `outDir` serves it from; returns the number of bulk files the folder holds.
 */
export async function writeKvOutput(
  kvDir: string,
  shards: Iterable<KvShard>,
  outDir: string,
  routed: readonly OutputFile[],
): Promise<number> {
  const bodyOf = (source: { file: string; digest: Uint8Array }) => servedBody(outDir, source);
  const buckets = [...bucketsOf(shards, bodyOf), ...routedBuckets(withEveryRouteShard(routed))];
  const previous = readState(kvDir);
  if (previous === undefined) {
    const staging = await openStaging(kvDir, KV_MARKERS);
    try {
      const states = new Map<string, BucketState>();
      for (const bucket of buckets) states.set(bucket.name, await writeBucket(staging, bucket));
      writeState(staging, states, false);
      await commitStaging(staging, kvDir);
      return fileCount(states);
    } catch (error) {
      await discardStaging(staging);
      throw error;
    }
  }
  // A state a killed build was writing is no part of the folder (an older version's temporary named it so).
  sweep(kvDir, { locked: true, unnamed: (name) => name.startsWith(`${KV_STATE}.`) && name.endsWith(".tmp") });
  writeState(kvDir, previous, true);
  const states = new Map<string, BucketState>();
  for (const bucket of buckets) {
    const before = previous.get(bucket.name);
    if (before?.inputs === bucket.inputs) states.set(bucket.name, before);
    else {
      rmSync(join(kvDir, bucket.name), { recursive: true, force: true });
      states.set(bucket.name, await writeBucket(kvDir, bucket));
    }
  }
  for (const name of previous.keys())
    if (!states.has(name)) rmSync(join(kvDir, name), { recursive: true, force: true });
  writeState(kvDir, states, false);
  return fileCount(states);
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

/** Written whole by the one atomic writer: a reader finds the old state or the new. */
function writeState(kvDir: string, states: ReadonlyMap<string, BucketState>, updating: boolean): void {
  const lines = [...states].map(
    ([bucket, { inputs, files }]) => `${JSON.stringify(bucket)}:${JSON.stringify([inputs, files])}`,
  );
  const text = `{"format":${KV_STATE_FORMAT},"index":${INDEX_FORMAT},"updating":${updating},"buckets":{\n${lines.join(",\n")}\n}}\n`;
  writeAtomically(join(kvDir, KV_STATE), text);
}

/**
 * The buckets' states the folder's state names; undefined when there is none this build can use: no folder or state,
 * another format, one that could name a path outside the folder, or an update that never finished.
 */
function readState(kvDir: string): Map<string, BucketState> | undefined {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(join(kvDir, KV_STATE), "utf8"));
  } catch {
    return undefined;
  }
  const { format, index, updating, buckets } = (state ?? {}) as Record<string, unknown>;
  if (format !== KV_STATE_FORMAT || index !== INDEX_FORMAT || updating !== false) return undefined;
  if (typeof buckets !== "object" || buckets === null) return undefined;
  const states = new Map<string, BucketState>();
  for (const [bucket, kept] of Object.entries(buckets)) {
    if (!BUCKET_NAME.test(bucket) || !Array.isArray(kept) || kept.length !== 2) return undefined;
    const [inputs, files] = kept as unknown[];
    if (typeof inputs !== "string" || !/^[0-9a-f]{64}$/.test(inputs) || !Number.isSafeInteger(files)) return undefined;
    states.set(bucket, { inputs, files: files as number });
  }
  return states;
}
