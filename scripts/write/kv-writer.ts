/**
 * Workers KV bulk-upload files (`wrangler kv bulk put FILE`), for a Worker that reads its
 * records from KV (layout in edge/records.ts): JSON arrays of at most 10,000
 * `{key, value, metadata}` pairs. Each pair goes to its file as the check produces its
 * body, through a small buffer: a file's pairs are never held together, so a pair dies
 * young and a million of them leave no trace on the heap. Pairs follow file order, then
 * redirects and revocations.
 */
import { closeSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { kvKey, type KvMetadata, type StatusEntry } from "../../edge/records.ts";

export const KV_PAIRS_PER_FILE = 10_000;
/** Text gathered before a write: few system calls, little memory. */
const BUFFER_CHARS = 1 << 20;

export class KvWriter {
  #fd: number | undefined;
  #pairsInFile = 0;
  #files = 0;
  #buffer = "";

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async manifest(umid: string, body: Uint8Array, etag: string, status: StatusEntry): Promise<void> {
    await this.#add(umid, new TextDecoder().decode(body), { etag, status });
  }

  async redirect(umid: string, location: string): Promise<void> {
    await this.#add(umid, location, { redirect: true });
  }

  async revoked(umid: string, status: StatusEntry): Promise<void> {
    await this.#add(umid, "", { revoked: true, status });
  }

  /** Completes the last file; returns the number of files. */
  finish(): number {
    this.#closeFile();
    return this.#files;
  }

  async #add(umid: string, value: string, metadata: KvMetadata): Promise<void> {
    const pair = JSON.stringify({ key: await kvKey(umid), value, metadata });
    if (this.#pairsInFile === KV_PAIRS_PER_FILE) this.#closeFile();
    if (this.#fd === undefined) {
      this.#fd = openSync(join(this.dir, `kv-${String(++this.#files).padStart(5, "0")}.json`), "wx");
      this.#buffer = "[\n";
    } else {
      this.#buffer += ",\n";
    }
    this.#buffer += pair;
    this.#pairsInFile++;
    if (this.#buffer.length >= BUFFER_CHARS) this.#flush();
  }

  #closeFile(): void {
    if (this.#fd === undefined) return;
    this.#buffer += "\n]\n";
    this.#flush();
    closeSync(this.#fd);
    this.#fd = undefined;
    this.#pairsInFile = 0;
  }

  #flush(): void {
    // Unlike writeSync, this writes all of it, however many calls that takes.
    writeFileSync(this.#fd!, this.#buffer);
    this.#buffer = "";
  }
}
