/**
 * The Node witness's WitnessStore: one file per log in the state folder,
 * `<hex SHA-256 of the origin>.json` (core/witness/witness-store.ts's record). An update
 * runs one at a time per log (SerialByKey) and writes the new record durably before it
 * resolves; the folder is held by one process (state-folder.ts), so no other writes it. A
 * record that cannot be read as the log's is an error, never "no checkpoint yet": that
 * would let the log start over from any tree.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseCheckpoint } from "../../core/tlog/checkpoint.ts";
import { sameHash } from "../../core/tlog/merkle.ts";
import { parseNote } from "../../core/tlog/note.ts";
import { SerialByKey } from "../../core/witness/serial-by-key.ts";
import {
  type CosignedCheckpoint,
  decodeCosigned,
  encodeCosigned,
  originHash,
  type WitnessStore,
} from "../../core/witness/witness-store.ts";
import { FolderSync, writeDurably } from "../store/atomic-write.ts";

/** A record in the state folder that is not the log's latest cosigned checkpoint: the witness answers 500. */
class DamagedRecord extends Error {}

export class FileWitnessStore implements WitnessStore {
  private readonly serial = new SerialByKey();
  private readonly folderSync: FolderSync;
  /**
   * Each log's record as last read or written. The folder is this process's alone (state-folder.ts), so the record
   * is what the file holds: a request reads no file, and only the first one of a log reads it, with every check.
   */
  private readonly records = new Map<string, CosignedCheckpoint | undefined>();

  constructor(private readonly folder: string) {
    this.folderSync = new FolderSync(folder);
  }

  update<T>(
    origin: string,
    step: (latest: CosignedCheckpoint | undefined) => Promise<{ next?: CosignedCheckpoint; result: T }>,
  ): Promise<T> {
    return this.serial.run(origin, async () => {
      const { next, result } = await step(await this.record(origin));
      if (next !== undefined) {
        await writeDurably(this.folderSync, await this.recordPath(origin), encodeCosigned(next));
        this.records.set(origin, next);
      }
      return result;
    });
  }

  /**
   * Resolves once every update begun has written its record, or failed: the folder may then be let go. A write that
   * outlived its request and landed after another witness took the folder would roll a log back.
   */
  settled(): Promise<void> {
    return this.serial.settled();
  }

  latest(origin: string): Promise<CosignedCheckpoint | undefined> {
    // In the log's turn too: a read of the file racing a write must never put an older record in the map.
    return this.serial.run(origin, () => this.record(origin));
  }

  /** The log's record; only ever called in the log's turn (`serial`). */
  private async record(origin: string): Promise<CosignedCheckpoint | undefined> {
    if (this.records.has(origin)) return this.records.get(origin);
    const record = await readRecord(await this.recordPath(origin), origin);
    this.records.set(origin, record);
    return record;
  }

  private async recordPath(origin: string): Promise<string> {
    return join(this.folder, `${await originHash(origin)}.json`);
  }
}

async function readRecord(path: string, origin: string): Promise<CosignedCheckpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DamagedRecord(`cannot read ${path}, the record of ${origin}: ${(error as Error).message}`);
  }
  let record: CosignedCheckpoint;
  try {
    record = decodeCosigned(text);
  } catch (error) {
    throw new DamagedRecord(`${path}, the record of ${origin}, is damaged: ${(error as Error).message}`);
  }
  // A record moved from another log's name, or edited in part, must not stand for this log's.
  const note = parseNote(record.note);
  const checkpoint = note && parseCheckpoint(note.text);
  if (
    checkpoint?.origin !== origin ||
    checkpoint.size !== record.size ||
    !sameHash(checkpoint.rootHash, record.rootHash)
  )
    throw new DamagedRecord(`${path}, the record of ${origin}, holds no checkpoint of that log's size and root`);
  return record;
}
