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
import { writeDurably } from "./durable-write.ts";

/** A record in the state folder that is not the log's latest cosigned checkpoint: the witness answers 500. */
class DamagedRecord extends Error {}

export class FileWitnessStore implements WitnessStore {
  private readonly serial = new SerialByKey();

  constructor(private readonly folder: string) {}

  update<T>(
    origin: string,
    step: (latest: CosignedCheckpoint | undefined) => Promise<{ next?: CosignedCheckpoint; result: T }>,
  ): Promise<T> {
    return this.serial.run(origin, async () => {
      const path = await this.recordPath(origin);
      const { next, result } = await step(await readRecord(path, origin));
      if (next !== undefined) await writeDurably(path, encodeCosigned(next));
      return result;
    });
  }

  async latest(origin: string): Promise<CosignedCheckpoint | undefined> {
    return readRecord(await this.recordPath(origin), origin);
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
