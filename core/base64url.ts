/**
 * Base64url without padding (RFC 4648 §5), strict in both directions; and standard padded
 * base64 (§4), as strict, for the formats that use it (signed notes, checkpoints).
 *
 * Decoding rejects padding, characters outside the alphabet, impossible lengths and
 * non-zero trailing bits, so every byte string has exactly one accepted spelling: a UMID
 * maps to one `b64u:` path and one file name, never several.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64url(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/** The decoded bytes, or `undefined` when `text` is not canonical unpadded base64url. */
export function decodeBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  const tail = text.length % 4;
  if (tail === 1) return undefined;
  const out = new Uint8Array(((text.length - tail) / 4) * 3 + (tail === 0 ? 0 : tail - 1));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) return undefined;
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, or two spellings would decode to the same bytes.
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  // TextEncoder always allocates a fresh ArrayBuffer; some libs type it more loosely.
  return utf8Encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/** The text, or `undefined` when `bytes` are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard padded base64 (RFC 4648 §4), as signed notes and checkpoints write it. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The bytes of canonical standard base64, or `undefined`: the text is compared after a
 * round trip, as atob ignores non-zero bits before the padding and two spellings would
 * otherwise name the same bytes.
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!STANDARD_BASE64.test(text)) return undefined;
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  return encodeBase64(bytes) === text ? bytes : undefined;
}
