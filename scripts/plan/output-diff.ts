/**
 * What a warm build changes in the previous output: from the records of the index shards
 * whose bytes changed, old and new, the body files that go, move (same body, new name: a
 * case twin arrived or left) or are written (new, or new bytes). A UMID's shard depends on
 * the UMID alone, so the shards that changed hold every UMID whose body changed.
 */
import { readIndexShard } from "../../edge/records.ts";
import { isOutputPath } from "./output-state.ts";

/** A published UMID's body as its index record names it. */
export interface BodyRecord {
  file: string;
  etag: string;
}

export interface BodyChanges {
  removes: string[];
  moves: { from: string; to: string }[];
  writes: { umid: string; file: string; etag: string }[];
}

/**
 * The body records of an index shard's bytes, by UMID, read as the edge reads them (edge/records.ts); undefined when
 * the bytes are not a shard this build wrote.
 */
export function bodyRecords(bytes: Uint8Array): Map<string, BodyRecord> | undefined {
  const shard = readIndexShard(bytes);
  if ("problem" in shard) return undefined;
  const bodies = new Map<string, BodyRecord>();
  for (const [umid, value] of shard) {
    const entry = value as { file?: unknown; etag?: unknown } | null;
    if (entry?.file === undefined) continue;
    if (typeof entry.file !== "string" || !isOutputPath(entry.file) || typeof entry.etag !== "string") return undefined;
    bodies.set(umid, { file: entry.file, etag: entry.etag });
  }
  return bodies;
}

/** The changes that turn the bodies `before` names into those `after` names (both: of the same shards). */
export function bodyChanges(before: Map<string, BodyRecord>, after: Map<string, BodyRecord>): BodyChanges {
  const changes: BodyChanges = { removes: [], moves: [], writes: [] };
  for (const [umid, old] of before) {
    const next = after.get(umid);
    if (next?.etag === old.etag && next.file !== old.file) changes.moves.push({ from: old.file, to: next.file });
    // A file the new plan writes anew is replaced, not removed first.
    else if (next?.file !== old.file) changes.removes.push(old.file);
  }
  for (const [umid, next] of after) {
    const old = before.get(umid);
    if (old?.etag !== next.etag) changes.writes.push({ umid, file: next.file, etag: next.etag });
  }
  return changes;
}
