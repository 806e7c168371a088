/**
 * Base58btc (the Bitcoin alphabet; draft-msporny-base58 §3), as multibase's `z` prefix
 * uses it: each leading "1" is one zero byte, the rest is a big-endian number. A byte
 * string has exactly one spelling, so no second check of canonical form is needed.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/**
 * The decoded bytes, or `undefined` when `text` holds a character outside the alphabet.
 * Quadratic in the length: callers bound it first.
 */
export function decodeBase58btc(text: string): Uint8Array | undefined {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  // The number's bytes, least significant first.
  const number: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let carry = code < 128 ? VALUES[code]! : -1;
    if (carry < 0) return undefined;
    for (let j = 0; j < number.length; j++) {
      carry += number[j]! * 58;
      number[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) number.push(carry & 0xff);
  }
  const out = new Uint8Array(zeros + number.length);
  for (let i = 0; i < number.length; i++) out[out.length - 1 - i] = number[i]!;
  return out;
}

/** The base58btc spelling of `bytes`. Quadratic in the length, like decoding: for keys, not documents. */
export function encodeBase58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // The number's base-58 digits, least significant first.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58);
  }
  return (
    "1".repeat(zeros) +
    digits
      .reverse()
      .map((d) => ALPHABET[d])
      .join("")
  );
}
