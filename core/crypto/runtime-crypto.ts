/**
 * Ed25519 verification and SHA-256 for code that runs anywhere, by the runtime's WebCrypto
 * where it has them: Node 20+, Deno, workerd and current browsers implement `Ed25519` in
 * `crypto.subtle` (Chromium since 137, Firefox since 129, Safari since 17). Where it does
 * not (an older browser; no `crypto.subtle` at all on a page served over plain http), the
 * pure-JS fallback (pure-crypto.ts) is loaded, by a dynamic import, so that the runtimes
 * that need none do not download it. Which one verifies is asked once and kept.
 *
 * The strict rules of ed25519-strict.ts come first on both paths, so every runtime refuses
 * the signatures the build refuses, whatever its library accepts.
 * Imported keys are kept (the last 1024): a relying party meets the same few signers again
 * and again, and importing costs a fifth of what a verification does.
 */
import { LruCache } from "../lru-cache.ts";
import { ed25519Weakness } from "./ed25519-strict.ts";
import type { Ed25519Verdict } from "./profile-a.ts";

/** A verifier run once the strict checks passed: "valid", or why not; never throws. */
export type Ed25519Verifier = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => Promise<Ed25519Verdict>;

type Subtle = typeof crypto.subtle;
type VerifyKey = Awaited<ReturnType<Subtle["importKey"]>>;

const ED25519 = { name: "Ed25519" } as const;
/** The base point's encoding: a key every Ed25519 implementation imports. */
const BASE_POINT = Uint8Array.from([0x58, ...new Array<number>(31).fill(0x66)]);
const keys = new LruCache<VerifyKey>(1024);

/**
 * "valid", or why not (a key WebCrypto refuses to import is "weak-key"); throws only where the fallback was needed and
 * could not be loaded.
 */
export async function verifyEd25519(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<Ed25519Verdict> {
  return strictlyVerified(await ed25519Verifier(), publicKey, message, signature);
}

/** `verifier`'s verdict, once the strict checks of ed25519-strict.ts passed. */
export async function strictlyVerified(
  verifier: Ed25519Verifier,
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<Ed25519Verdict> {
  return ed25519Weakness(publicKey, signature) ?? verifier(publicKey, message, signature);
}

/** SHA-256 of `data`. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) return (await import("./pure-crypto.ts")).pureSha256(data);
  return new Uint8Array(await subtle.digest("SHA-256", bytes(data)));
}

let chosen: Promise<Ed25519Verifier> | undefined;

/**
 * WebCrypto's verifier where the runtime has Ed25519, the pure-JS one elsewhere; decided on the first call. A fallback
 * that failed to load (a network error, in a browser) is asked for again at the next call, not refused for good.
 */
function ed25519Verifier(): Promise<Ed25519Verifier> {
  chosen ??= choose().catch((error: unknown) => {
    chosen = undefined;
    throw error;
  });
  return chosen;
}

async function choose(): Promise<Ed25519Verifier> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle !== undefined && (await hasEd25519(subtle))) return webCryptoVerifier(subtle);
  return (await import("./pure-crypto.ts")).pureEd25519Verify;
}

/** Whether `subtle` verifies Ed25519: an older browser's refuses to import any Ed25519 key. */
export async function hasEd25519(subtle: Subtle): Promise<boolean> {
  try {
    await subtle.importKey("raw", BASE_POINT, ED25519, false, ["verify"]);
    return true;
  } catch {
    return false;
  }
}

function webCryptoVerifier(subtle: Subtle): Ed25519Verifier {
  return async (publicKey, message, signature) => {
    const id = String.fromCharCode(...publicKey);
    let key = keys.get(id);
    if (key === undefined) {
      try {
        key = await subtle.importKey("raw", bytes(publicKey), ED25519, false, ["verify"]);
      } catch {
        return "weak-key";
      }
      keys.set(id, key, 1);
    }
    try {
      return (await subtle.verify(ED25519, key, bytes(signature), bytes(message))) ? "valid" : "invalid";
    } catch {
      return "invalid";
    }
  };
}

/** A copy backed by its own ArrayBuffer, which is what WebCrypto's types ask for. */
function bytes(view: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(view);
}
