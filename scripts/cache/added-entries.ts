/**
 * The entries a run adds to the verification cache, held until it is saved: as columns of
 * bytes and numbers, and their JSON as UTF-8 in large chunks. Held as one object each, with
 * two keys in buffers of their own and a string of JSON, they cost about 1 KB an entry
 * (measured at 100,000): at a million files, most of a cold check's memory.
 */
import { withRoom } from "./growing.ts";
import { KEY_BYTES, type KeyKind } from "./known-keys.ts";

/** An alias of a file's entry (file-identity.ts). */
export interface Alias {
  key: Uint8Array;
  kind: KeyKind;
}

/** JSON gathered as text before it is encoded into a chunk. */
const CHUNK_CHARS = 1 << 20;
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
  readonly #json: Buffer[] = [];
  #pending = "";

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

  /** Every entry's JSON, one after another, in chunks. */
  json(): Buffer[] {
    this.#encodePending();
    return this.#json;
  }

  #encodePending(): void {
    if (this.#pending !== "") this.#json.push(Buffer.from(this.#pending));
    this.#pending = "";
  }
}
