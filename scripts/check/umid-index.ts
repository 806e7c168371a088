/**
 * UMIDs to numbers, as compactly as a million of them allow (issue 38, section 3): no UMID string is kept, only the
 * first 16 bytes of its SHA-256, in one typed array, its number in another, and an open-addressing table of their
 * positions (linear probing, at most three quarters full). About 28 bytes a UMID, where a Map of strings takes five
 * times that. Two UMIDs are told apart by their digests: equal 128-bit prefixes of SHA-256 take 2^64 tries to find,
 * and both UMIDs are then the finder's; one equal to another's UMID takes 2^128. Two that met would be one UMID here
 * (the second given the first's number, as a UMID twice is), never a table out of order.
 */
import { hash } from "node:crypto";

const KEY_BYTES = 16;

export class UmidIndex {
  #keys = new Uint8Array(1024 * KEY_BYTES);
  #values = new Int32Array(1024);
  /** 0: empty; else the position of a UMID in #keys and #values, plus one. */
  #slots = new Int32Array(2048);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The number of `umid`, if it has one. */
  get(umid: string): number | undefined {
    const slot = this.#find(keyOf(umid));
    return slot < 0 ? undefined : this.#values[this.#slots[slot]! - 1];
  }

  /** Gives `umid` the number `value` unless it has one: then that number is returned, and nothing changes. */
  add(umid: string, value: number): number | undefined {
    const key = keyOf(umid);
    const slot = this.#find(key);
    if (slot >= 0) return this.#values[this.#slots[slot]! - 1];
    const at = this.#size++;
    if (at === this.#values.length) this.#grow();
    this.#keys.set(key, at * KEY_BYTES);
    this.#values[at] = value;
    this.#slots[-slot - 1] = at + 1;
    if (this.#size * 4 > this.#slots.length * 3) this.#rehash(this.#slots.length * 2);
    return undefined;
  }

  /** The slot holding `key`; or, not found, -(the empty slot where it would go) - 1. */
  #find(key: Uint8Array): number {
    const mask = this.#slots.length - 1;
    for (let slot = startOf(key) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot]!;
      if (held === 0) return -slot - 1;
      if (this.#holds(held - 1, key)) return slot;
    }
  }

  #holds(at: number, key: Uint8Array): boolean {
    const offset = at * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) if (this.#keys[offset + i] !== key[i]) return false;
    return true;
  }

  #grow(): void {
    const keys = new Uint8Array(this.#keys.length * 2);
    keys.set(this.#keys);
    this.#keys = keys;
    const values = new Int32Array(this.#values.length * 2);
    values.set(this.#values);
    this.#values = values;
  }

  #rehash(length: number): void {
    this.#slots = new Int32Array(length);
    const mask = length - 1;
    for (let at = 0; at < this.#size; at++) {
      let slot = startOf(this.#keys.subarray(at * KEY_BYTES)) & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = at + 1;
    }
  }
}

function keyOf(umid: string): Uint8Array {
  return hash("sha256", umid, "buffer").subarray(0, KEY_BYTES);
}

/** Where a key's probe starts: its first four bytes (a digest's, so spread evenly). */
function startOf(key: Uint8Array): number {
  return ((key[0]! << 24) | (key[1]! << 16) | (key[2]! << 8) | key[3]!) >>> 0;
}
