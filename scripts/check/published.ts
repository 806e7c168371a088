/**
 * The manifests a build publishes, as compactly as the index needs them: a million of
 * them are held until the index is written. Each is its UMID, the SHA-256 its ETag
 * carries, kept as raw bytes in one growing buffer outside the JavaScript heap (32 bytes
 * instead of a 55-character string and an object around it), and its issuedAt, which
 * dates its status when nothing else does (8 bytes).
 */

const DIGEST_BYTES = 32;

export class PublishedManifests {
  readonly #umids: string[] = [];
  #digests = new Uint8Array(1024 * DIGEST_BYTES);
  #issued = new Float64Array(1024);

  get length(): number {
    return this.#umids.length;
  }

  /** `issuedAt` in milliseconds since the epoch; NaN when unknown. */
  add(umid: string, digest: Uint8Array, issuedAt = NaN): void {
    if (digest.byteLength !== DIGEST_BYTES) throw new Error(`not a SHA-256 digest: ${digest.byteLength} bytes`);
    const at = this.#umids.length * DIGEST_BYTES;
    if (at === this.#digests.byteLength) {
      const grown = new Uint8Array(this.#digests.byteLength * 2);
      grown.set(this.#digests);
      this.#digests = grown;
      const issued = new Float64Array(this.#issued.length * 2);
      issued.set(this.#issued);
      this.#issued = issued;
    }
    this.#digests.set(digest, at);
    this.#issued[this.#umids.length] = issuedAt;
    this.#umids.push(umid);
  }

  umidAt(i: number): string {
    return this.#umids[i]!;
  }

  /** When the manifest was issued, in milliseconds since the epoch (NaN: unknown). */
  issuedAt(i: number): number {
    return this.#issued[i]!;
  }

  /** The SHA-256 of its body, as lowercase hex. */
  digestAt(i: number): string {
    return Buffer.from(this.#digests.buffer, i * DIGEST_BYTES, DIGEST_BYTES).toString("hex");
  }

  /** The SHA-256 of its body, as bytes (a view: copy it to keep it). */
  digestBytesAt(i: number): Uint8Array {
    return this.#digests.subarray(i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
  }
}
