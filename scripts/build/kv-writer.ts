/**
 * Workers KV bulk-upload files (`wrangler kv bulk put FILE`), for a Worker that reads its
 * records from KV (layout in edge/records.ts): JSON arrays of at most 10,000
 * `{key, value, metadata}` pairs, written as the check produces bodies, so that a million
 * manifests never sit in memory. Pairs follow file order, then redirects and revocations.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { kvKey, type KvMetadata } from "../../edge/records.ts";

export const KV_PAIRS_PER_FILE = 10_000;

export class KvWriter {
  #pairs: string[] = [];
  #files = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  async manifest(umid: string, body: Uint8Array, etag: string): Promise<void> {
    await this.#add(umid, new TextDecoder().decode(body), { etag });
  }

  async redirect(umid: string, location: string): Promise<void> {
    await this.#add(umid, location, { redirect: true });
  }

  async revoked(umid: string): Promise<void> {
    await this.#add(umid, "", { revoked: true });
  }

  /** Writes what is left; returns the number of files. */
  finish(): number {
    if (this.#pairs.length > 0) this.#flush();
    return this.#files;
  }

  async #add(umid: string, value: string, metadata: KvMetadata): Promise<void> {
    this.#pairs.push(JSON.stringify({ key: await kvKey(umid), value, metadata }));
    if (this.#pairs.length === KV_PAIRS_PER_FILE) this.#flush();
  }

  #flush(): void {
    this.#files++;
    writeFileSync(join(this.dir, `kv-${String(this.#files).padStart(5, "0")}.json`), `[\n${this.#pairs.join(",\n")}\n]\n`);
    this.#pairs = [];
  }
}
