/**
 * The bitstring of a W3C Bitstring Status List (VC Bitstring Status List v1.0, §2.2, §3.3,
 * §3.4, §7.1), as this resolver uses it: `statusSize` 2, so entry `i` is bits `2i` and
 * `2i + 1`, counted from the most significant bit of byte 0 (the "left-most" bit), read as
 * one number 0–3. `encodedList` is multibase base64url (`u`, no padding) of its GZIP.
 *
 * Every list has exactly `STATUS_LIST_ENTRIES` entries, the Recommendation's minimum
 * (§3.2: a list shorter than 131,072 entries is a STATUS_LIST_LENGTH_ERROR): a list is a
 * herd, and a longer one would only be a larger download. Decoding reads at most
 * `MAX_DECODED_BYTES` of a list, whatever its GZIP claims, so a small body that inflates
 * to gigabytes costs nothing.
 */
import { decodeBase64url, encodeBase64url } from "../base64url.ts";

export const STATUS_SIZE = 2;
export const STATUS_LIST_ENTRIES = 131_072;
/** The bytes of one list's bitstring: 32 KiB. */
export const STATUS_LIST_BYTES = (STATUS_LIST_ENTRIES * STATUS_SIZE) / 8;
/** The most a decoded list may hold: a list of 2^25 entries, far more than anyone publishes. */
export const MAX_DECODED_BYTES = 8 * 1024 * 1024;

/** An entry's value: 0 to 3. */
export type StatusCode = 0 | 1 | 2 | 3;

/** A decoded bitstring: its entries, from index 0. */
export interface StatusBits {
  readonly entries: number;
  codeAt(index: number): StatusCode;
}

/** The bitstring of a list with these entries set (every other entry 0): `codes` maps an index to its value. */
export function statusBitstring(codes: Iterable<readonly [index: number, code: StatusCode]>): Uint8Array {
  const bytes = new Uint8Array(STATUS_LIST_BYTES);
  for (const [index, code] of codes) {
    if (!Number.isInteger(index) || index < 0 || index >= STATUS_LIST_ENTRIES)
      throw new RangeError(`status list index ${index} is outside 0–${STATUS_LIST_ENTRIES - 1}`);
    const shift = 6 - (index % 4) * 2;
    bytes[index >> 2] = (bytes[index >> 2]! & ~(3 << shift)) | (code << shift);
  }
  return bytes;
}

/** `encodedList` of a bitstring: `u`, then the base64url of its GZIP. */
export async function encodeStatusList(bitstring: Uint8Array): Promise<string> {
  const gzipped = await new Response(
    new Blob([new Uint8Array(bitstring)]).stream().pipeThrough(new CompressionStream("gzip")),
  ).arrayBuffer();
  return `u${encodeBase64url(new Uint8Array(gzipped))}`;
}

/** The bits of an `encodedList`, or why it holds none (§3.4; §3.2's length rule). */
export async function decodeStatusList(encodedList: string): Promise<StatusBits | { problem: string }> {
  if (!encodedList.startsWith("u")) return { problem: "encodedList is not multibase base64url (it must start with u)" };
  const gzipped = decodeBase64url(encodedList.slice(1));
  if (gzipped === undefined) return { problem: "encodedList is not base64url" };
  const inflated = await gunzip(gzipped);
  if ("problem" in inflated) return inflated;
  const bytes = inflated.bytes;
  const entries = (bytes.length * 8) / STATUS_SIZE;
  if (entries < STATUS_LIST_ENTRIES)
    return {
      problem: `the list holds ${entries} entries, fewer than the ${STATUS_LIST_ENTRIES} herd privacy asks for (STATUS_LIST_LENGTH_ERROR)`,
    };
  return {
    entries,
    codeAt(index) {
      if (!Number.isInteger(index) || index < 0 || index >= entries)
        throw new RangeError(`status list index ${index} is outside 0–${entries - 1}`);
      return ((bytes[index >> 2]! >> (6 - (index % 4) * 2)) & 3) as StatusCode;
    },
  };
}

async function gunzip(gzipped: Uint8Array): Promise<{ bytes: Uint8Array } | { problem: string }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    const reader = new Blob([new Uint8Array(gzipped)])
      .stream()
      .pipeThrough(new DecompressionStream("gzip"))
      .getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > MAX_DECODED_BYTES) {
        await reader.cancel();
        return { problem: `encodedList inflates to more than ${MAX_DECODED_BYTES} bytes` };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { problem: `encodedList is not GZIP: ${error instanceof Error ? error.message : String(error)}` };
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes };
}
