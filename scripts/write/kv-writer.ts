/**
 * Workers KV bulk-upload files (`wrangler kv bulk put FILE`), for a Worker that reads its
 * records from KV (layout in edge/records.ts): JSON arrays of `{key, value, metadata}`
 * pairs (the route table's files, which may be any bytes, as `{key, value, base64: true}`, which KV
 * decodes), each file within what Cloudflare's bulk write accepts in one request, at most
 * 10,000 pairs and under 100 MB (docs/hosts.md, "Host limits"). A writer fills one folder
 * (an index shard's: kv-output.ts); its files are numbered from 1 and go 1,000 to a
 * folder (`kv-0001/kv-0000001.json`), so that however many pairs one shard has, a pair to
 * a file at the largest body, no folder holds over 10,000 entries.
 *
 * Each pair goes to its file as it is given, encoded at once and gathered up to a megabyte
 * a write: a file's pairs are never held together, so a pair dies young and a million of
 * them leave no trace on the heap. Pairs are written in the order given. (Gathered as text,
 * the pairs made a string of many pieces that writing flattened and encoded again: twice
 * the time, measured on 20,000 bodies.)
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { kvKey, type KvMetadata, type StatusEntry } from "../../edge/records.ts";
import { writeParts } from "../store/write-parts.ts";

/** Cloudflare's bulk write: pairs in one request. */
export const KV_PAIRS_PER_FILE = 10_000;
/** Cloudflare's bulk write: a request must be under 100 megabytes; a file is sent as at most one. */
export const KV_FILE_BYTES = 100_000_000;
const KV_FILES_PER_FOLDER = 1_000;
/** Bytes gathered before a write: few system calls, little memory. */
const BUFFER_BYTES = 1 << 20;
const OPEN = Buffer.from("[\n");
const SEPARATOR = Buffer.from(",\n");
const CLOSE = Buffer.from("\n]\n");
/** Bodies are UTF-8 (canonical JSON); a decoder keeps no state between whole inputs. */
const decoder = new TextDecoder();

export class KvWriter {
  #fd: number | undefined;
  #pairsInFile = 0;
  /** The UTF-8 bytes of the open file, its closing bracket included. */
  #bytesInFile = 0;
  #files = 0;
  #parts: Uint8Array[] = [];
  #pending = 0;

  /** `limits`: what one file may hold, Cloudflare's unless a test asks for less. */
  constructor(
    readonly dir: string,
    readonly limits: { pairs: number; bytes: number } = { pairs: KV_PAIRS_PER_FILE, bytes: KV_FILE_BYTES },
  ) {
    mkdirSync(dir, { recursive: true });
  }

  async manifest(umid: string, body: Uint8Array, etag: string, status: StatusEntry): Promise<void> {
    this.#add(await kvKey(umid), decoder.decode(body), { etag, status });
  }

  async redirect(umid: string, location: string): Promise<void> {
    this.#add(await kvKey(umid), location, { redirect: true });
  }

  async revoked(umid: string, status: StatusEntry): Promise<void> {
    this.#add(await kvKey(umid), "", { revoked: true, status });
  }

  /**
   * One of the route table's files, keyed by its name in the output (plan/routes.ts): a shard, whose rows hold the
   * ETags, or a document, checked against its row's; so it has no metadata.
   */
  file(key: string, bytes: Uint8Array): void {
    this.#add(key, Buffer.from(bytes).toString("base64"), undefined, true);
  }

  /** Completes the last file; returns the number of files. */
  finish(): number {
    this.#closeFile();
    return this.#files;
  }

  #add(key: string, value: string, metadata?: KvMetadata, base64?: true): void {
    const pair = Buffer.from(JSON.stringify({ key, value, metadata, base64 }));
    const bytes = pair.byteLength;
    // A pair too large for any file still gets one of its own: Cloudflare refuses its value (hostWarnings says so).
    const full =
      this.#pairsInFile === this.limits.pairs ||
      (this.#pairsInFile > 0 && this.#bytesInFile + SEPARATOR.byteLength + bytes >= this.limits.bytes);
    if (full) this.#closeFile();
    if (this.#fd === undefined) {
      const number = ++this.#files;
      if (number % KV_FILES_PER_FOLDER === 1) mkdirSync(join(this.dir, kvFolder(number)));
      this.#fd = openSync(join(this.dir, kvFolder(number), `kv-${String(number).padStart(7, "0")}.json`), "wx");
      this.#gather(OPEN);
      this.#bytesInFile = OPEN.byteLength + CLOSE.byteLength;
    } else {
      this.#gather(SEPARATOR);
      this.#bytesInFile += SEPARATOR.byteLength;
    }
    this.#gather(pair);
    this.#bytesInFile += bytes;
    this.#pairsInFile++;
    if (this.#pending >= BUFFER_BYTES) this.#flush();
  }

  #gather(part: Uint8Array): void {
    this.#parts.push(part);
    this.#pending += part.byteLength;
  }

  #closeFile(): void {
    if (this.#fd === undefined) return;
    this.#gather(CLOSE);
    this.#flush();
    closeSync(this.#fd);
    this.#fd = undefined;
    this.#pairsInFile = 0;
  }

  #flush(): void {
    writeParts(this.#fd!, this.#parts);
    this.#parts = [];
    this.#pending = 0;
  }
}

/** The folder of the `number`th file. */
function kvFolder(number: number): string {
  return `kv-${String(Math.ceil(number / KV_FILES_PER_FOLDER)).padStart(4, "0")}`;
}
