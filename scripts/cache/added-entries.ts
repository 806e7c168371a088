/**
 * The entries a run adds to the verification cache, held until it is saved: as columns of
 * bytes and numbers, and their JSON as UTF-8, written out to a spill file beside the cache
 * as it grows (kept in memory only if that file cannot be written). Held as one object
 * each, with two keys in buffers of their own and a string of JSON, they cost about 1 KB an
 * entry (measured at 100,000): at a million files, most of a cold check's memory.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { readFully } from "../read/read-fully.ts";
import { withRoom } from "../store/growing.ts";
import { KEY_BYTES } from "../store/sorted-table.ts";
import type { KeyKind } from "./known-keys.ts";

/** An alias of a file's entry (file-identity.ts). */
export interface Alias {
  key: Uint8Array;
  kind: KeyKind;
}

/** JSON gathered as text before it is encoded into a chunk, and what is read back of the spill file at once. */
const CHUNK_CHARS = 1 << 20;
const READ_BYTES = 4 << 20;
const NO_ALIAS = 0xff;
/** Each entry's words: its alias's kind (NO_ALIAS: none), its reads' index, its flags, its JSON's length in bytes. */
const WORDS = 4;

export class AddedEntries {
  #count = 0;
  /** Each entry's key, then its alias's (zeros for none). */
  #keys = new Uint8Array(2 * KEY_BYTES * 1024);
  /** Each entry's body digest (zeros for none). */
  #digests = new Uint8Array(KEY_BYTES * 1024);
  #words = new Uint32Array(WORDS * 1024);
  /** The JSON not in the spill file. */
  readonly #json: Buffer[] = [];
  #pending = "";
  /** The spill file, once open, and the bytes in it; none goes there once a write failed. */
  #spill: number | undefined;
  #spilled = 0;
  #spillRefused = false;

  /** `spillPath`: where the JSON goes as it grows, a file of this run alone. */
  constructor(readonly spillPath: string) {}

  get count(): number {
    return this.#count;
  }

  /** `digest`: the body's SHA-256 in hex, or "" for none. */
  add(key: Uint8Array, alias: Alias | undefined, digest: string, json: string, dep: number, flags: number): void {
    const i = this.#count++;
    this.#keys = withRoom(this.#keys, this.#count * 2 * KEY_BYTES);
    this.#digests = withRoom(this.#digests, this.#count * KEY_BYTES);
    this.#words = withRoom(this.#words, this.#count * WORDS);
    this.#keys.set(key, 2 * i * KEY_BYTES);
    if (alias !== undefined) this.#keys.set(alias.key, (2 * i + 1) * KEY_BYTES);
    if (digest !== "") this.#digests.set(Buffer.from(digest, "hex"), i * KEY_BYTES);
    this.#words.set([alias?.kind ?? NO_ALIAS, dep, flags, Buffer.byteLength(json)], i * WORDS);
    this.#pending += json;
    if (this.#pending.length >= CHUNK_CHARS) this.#encodePending();
  }

  key(i: number): Uint8Array {
    return this.#keys.subarray(2 * i * KEY_BYTES, (2 * i + 1) * KEY_BYTES);
  }

  alias(i: number): Alias | undefined {
    const kind = this.#words[i * WORDS]!;
    if (kind === NO_ALIAS) return undefined;
    return { key: this.#keys.subarray((2 * i + 1) * KEY_BYTES, (2 * i + 2) * KEY_BYTES), kind: kind as KeyKind };
  }

  digest(i: number): Uint8Array {
    return this.#digests.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES);
  }

  dep(i: number): number {
    return this.#words[i * WORDS + 1]!;
  }

  flags(i: number): number {
    return this.#words[i * WORDS + 2]!;
  }

  jsonBytes(i: number): number {
    return this.#words[i * WORDS + 3]!;
  }

  /**
   * The JSON of the entries `ascending` names, one after another: in chunks, read back from the spill file, then what
   * is in memory. Leaving entries out is rare (a file checked twice in one run), and gathers all of it first.
   */
  *json(ascending: readonly number[]): Iterable<Uint8Array> {
    this.#encodePending();
    if (ascending.length === this.count) {
      yield* this.#chunks();
      return;
    }
    const all = Buffer.concat([...this.#chunks()]);
    const starts: number[] = [];
    for (let j = 0, at = 0; j < this.count; at += this.jsonBytes(j), j++) starts.push(at);
    for (const j of ascending) yield all.subarray(starts[j], starts[j]! + this.jsonBytes(j));
  }

  *#chunks(): Iterable<Uint8Array> {
    if (this.#spill !== undefined)
      for (let at = 0; at < this.#spilled; at += READ_BYTES)
        yield readFully(this.#spill, Math.min(READ_BYTES, this.#spilled - at), at);
    yield* this.#json;
  }

  /** Closes and removes the spill file. */
  dispose(): void {
    if (this.#spill === undefined) return;
    closeSync(this.#spill);
    this.#spill = undefined;
    rmSync(this.spillPath, { force: true });
  }

  #encodePending(): void {
    if (this.#pending === "") return;
    const chunk = Buffer.from(this.#pending);
    this.#pending = "";
    if (!this.#spillChunk(chunk)) this.#json.push(chunk);
  }

  /**
   * Whether `chunk` went to the spill file. A file that cannot be written costs memory, never the run: what reached
   * it stays there, and every later chunk stays in memory, in order.
   */
  #spillChunk(chunk: Buffer): boolean {
    if (this.#spillRefused) return false;
    try {
      if (this.#spill === undefined) {
        mkdirSync(dirname(this.spillPath), { recursive: true });
        this.#spill = openSync(this.spillPath, "wx+", 0o600);
      }
      for (let at = 0; at < chunk.byteLength; )
        at += writeSync(this.#spill, chunk, at, chunk.byteLength - at, this.#spilled + at);
      this.#spilled += chunk.byteLength;
      return true;
    } catch {
      this.#spillRefused = true;
      return false;
    }
  }
}
