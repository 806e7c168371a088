/**
 * The Workers KV bulk files: one folder per index shard, named as the shard is
 * (`dist-kv/<xyz>/kv-0001/kv-0000001.json`, …, by kv-writer.ts), each holding the pairs of
 * that shard's UMIDs in the index's order; and `kv-state.json`, which names the digest of
 * the inputs each shard's files were made from (the index shard's: output-plan.ts), and how
 * many files they are. A warm build rewrites only the shards whose inputs changed and
 * removes those that went, as it does the index. Without a state it can read, it writes the
 * whole folder beside the old one and swaps it in (output.ts). While shards are rewritten in
 * place the state says `"updating": true`: a build killed then leaves a folder the next
 * build writes whole again, as a cold build would.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INDEX_FORMAT } from "../../edge/records.ts";
import type { KvShard } from "../plan/output-plan.ts";
import { KvWriter } from "./kv-writer.ts";
import { commitStaging, discardStaging, OutputError, openStaging } from "./output.ts";

/** The state of a KV folder; also what shows that a folder is an earlier KV output, safe to replace. */
const KV_STATE = "kv-state.json";
const KV_STATE_FORMAT = 1;
const SHARD_NAME = /^[0-9a-f]{3}$/;

/** What made a shard's files, and how many there are. */
interface ShardState {
  inputs: string;
  files: number;
}

/**
 * Writes the KV pairs of `shards` into `kvDir`, each published UMID's value read from the file the output `outDir`
 * serves it from; returns the number of bulk files the folder holds.
 */
export async function writeKvOutput(kvDir: string, shards: Iterable<KvShard>, outDir: string): Promise<number> {
  const bodyOf = (source: { file: string; digest: Uint8Array }) => servedBody(outDir, source);
  const previous = readState(kvDir);
  if (previous === undefined) {
    const staging = await openStaging(kvDir, KV_STATE);
    try {
      const states = new Map<string, ShardState>();
      for (const shard of shards) states.set(shard.shard, await writeShard(staging, shard, bodyOf));
      writeState(staging, states, false);
      await commitStaging(staging, kvDir);
      return fileCount(states);
    } catch (error) {
      await discardStaging(staging);
      throw error;
    }
  }
  // A state a killed build was writing is no part of the folder.
  for (const name of readdirSync(kvDir))
    if (name.startsWith(`${KV_STATE}.`) && name.endsWith(".tmp")) rmSync(join(kvDir, name), { force: true });
  writeState(kvDir, previous, true);
  const states = new Map<string, ShardState>();
  for (const shard of shards) {
    const before = previous.get(shard.shard);
    if (before?.inputs === shard.inputs) states.set(shard.shard, before);
    else {
      rmSync(join(kvDir, shard.shard), { recursive: true, force: true });
      states.set(shard.shard, await writeShard(kvDir, shard, bodyOf));
    }
  }
  for (const shard of previous.keys())
    if (!states.has(shard)) rmSync(join(kvDir, shard), { recursive: true, force: true });
  writeState(kvDir, states, false);
  return fileCount(states);
}

async function writeShard(
  kvDir: string,
  shard: KvShard,
  bodyOf: (source: { file: string; digest: Uint8Array }) => Uint8Array,
): Promise<ShardState> {
  const writer = new KvWriter(join(kvDir, shard.shard));
  for (const source of shard.sources()) {
    if ("file" in source) await writer.manifest(source.umid, bodyOf(source), source.etag, source.status);
    else if ("redirect" in source) await writer.redirect(source.umid, source.redirect);
    else await writer.revoked(source.umid, source.revoked);
  }
  return { inputs: shard.inputs, files: writer.finish() };
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

function fileCount(states: ReadonlyMap<string, ShardState>): number {
  let files = 0;
  for (const { files: n } of states.values()) files += n;
  return files;
}

/** Written whole under a temporary name and renamed: a reader finds the old state or the new. */
function writeState(kvDir: string, states: ReadonlyMap<string, ShardState>, updating: boolean): void {
  const lines = [...states].map(
    ([shard, { inputs, files }]) => `${JSON.stringify(shard)}:${JSON.stringify([inputs, files])}`,
  );
  const text = `{"format":${KV_STATE_FORMAT},"index":${INDEX_FORMAT},"updating":${updating},"shards":{\n${lines.join(",\n")}\n}}\n`;
  const temporary = join(kvDir, `${KV_STATE}.${process.pid}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, join(kvDir, KV_STATE));
}

/**
 * The shards' states the folder's state names; undefined when there is none this build can use: no folder or state,
 * another format, one that could name a path outside the folder, or an update that never finished.
 */
function readState(kvDir: string): Map<string, ShardState> | undefined {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(join(kvDir, KV_STATE), "utf8"));
  } catch {
    return undefined;
  }
  const { format, index, updating, shards } = (state ?? {}) as Record<string, unknown>;
  if (format !== KV_STATE_FORMAT || index !== INDEX_FORMAT || updating !== false) return undefined;
  if (typeof shards !== "object" || shards === null) return undefined;
  const states = new Map<string, ShardState>();
  for (const [shard, kept] of Object.entries(shards)) {
    if (!SHARD_NAME.test(shard) || !Array.isArray(kept) || kept.length !== 2) return undefined;
    const [inputs, files] = kept as unknown[];
    if (typeof inputs !== "string" || !/^[0-9a-f]{64}$/.test(inputs) || !Number.isSafeInteger(files)) return undefined;
    states.set(shard, { inputs, files: files as number });
  }
  return states;
}
