/**
 * Ed25519 verification with WebCrypto, for code that runs anywhere: Node, Deno, workerd
 * and browsers all implement `Ed25519` in `crypto.subtle` (Chromium since 137, Firefox
 * since 129, Safari since 17). The strict rules of ed25519-strict.ts come first, so every
 * runtime refuses the signatures the build refuses, whatever its library accepts.
 * Imported keys are kept (the last 1024): a relying party meets the same few signers again
 * and again, and importing costs a fifth of what a verification does.
 */
import { LruCache } from "../lru-cache.ts";
import { ed25519Weakness } from "./ed25519-strict.ts";
import type { Ed25519Verdict } from "./profile-a.ts";

const ED25519 = { name: "Ed25519" } as const;
type VerifyKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new LruCache<VerifyKey>(1024);

/** "valid", or why not; never throws (a key WebCrypto refuses to import is "weak-key"). */
export async function verifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<Ed25519Verdict> {
  const weakness = ed25519Weakness(publicKey, signature);
  if (weakness !== undefined) return weakness;
  const id = String.fromCharCode(...publicKey);
  let key = keys.get(id);
  if (key === undefined) {
    try {
      key = await crypto.subtle.importKey("raw", bytes(publicKey), ED25519, false, ["verify"]);
    } catch {
      return "weak-key";
    }
    keys.set(id, key, 1);
  }
  try {
    return (await crypto.subtle.verify(ED25519, key, bytes(signature), bytes(message))) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

/** SHA-256 of `data`. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes(data)));
}

/** A copy backed by its own ArrayBuffer, which is what WebCrypto's types ask for. */
function bytes(view: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(view);
}
