/**
 * Signature Profile A (spec 2.6, 5.3; core §1.6): Ed25519 over the JCS canonical bytes of
 * the manifest without `signature`, `presentationProof` and `postQuantumSignature`;
 * `value` is unpadded base64url of the 64-byte signature; the key is an SPKI in standard
 * base64. Everything but the Ed25519 arithmetic is decided here, for `check` (which then
 * verifies with Node's native Ed25519) and the evaluator (WebCrypto, in any runtime)
 * alike: which key, whether each encoding is exact, and what each verdict means.
 *
 * The key (core §1.6.4): with `pins` (a `_keys.json`, or a relying party's resolved keys),
 * the key pinned for `keyRef`, which an embedded `publicKeySpkiB64` must equal byte for
 * byte (anything else is a key substitution), and an unpinned keyRef is refused; without
 * `pins`, the key a did:key or did:jwk keyRef is (core/did), held to the same equality,
 * else the embedded key (none: unverifiable).
 */
import { decodeBase64url, utf8 } from "../base64url.ts";
import { resolveKeyRefLocally } from "../did/resolve-key-ref.ts";
import { quoted } from "../excerpt.ts";
import { LruCache } from "../lru-cache.ts";
import type { Problem } from "../validate/problem.ts";
import type { CanonicalMembers } from "./jcs.ts";
import { PROFILE_A, signingInputText } from "./signing-input.ts";

/** DER prefix of every Ed25519 SubjectPublicKeyInfo: SEQUENCE { id-Ed25519 } BIT STRING (32 bytes). */
const ED25519_SPKI_PREFIX = "MCowBQYDK2VwAyEA";
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Keys by keyRef (the SPKI text, and where it was pinned, for messages), from `file`. When
 * given, the world is closed: a keyRef it does not pin, by exact string, is refused.
 */
export interface KeyPins {
  file: string;
  keys: ReadonlyMap<string, { spki: string; place: string }>;
  /**
   * The file could not be read as a whole (not JSON, or not its schema): the keys it pins
   * are unknown. Its own errors fail the run; each manifest is then not also called
   * unpinned, which would bury the one real fault under a false one per manifest.
   */
  unreadable?: true;
}

/**
 * The key a keyRef names apart from the manifest: pinned for it, or resolved from the
 * keyRef itself (a did:key or did:jwk is its key); or why such a DID names no key.
 */
export type KeyRefKey =
  | { source: "pin"; spki: string; place: string }
  | { source: "did"; spki: string }
  /** Resolved over the network: a did:web's document, at `url`. */
  | { source: "document"; spki: string; url: string }
  | { source: "malformed"; method: string; reason: string };

/** A key the relying party resolved for a keyRef over the network, and the document it came from. */
export interface RemoteKeyRefKey {
  publicKey: Uint8Array;
  documentUrl: string;
}

export type Ed25519Verdict = "valid" | "weak-key" | "invalid";

/** What is left to compute once every rule that needs no arithmetic has passed. */
export interface PendingVerification {
  /** The key's SPKI, standard base64 (a cache key for the verifier's key objects). */
  spki: string;
  /** The raw 32-byte public key. */
  publicKey: Uint8Array;
  signature: Uint8Array;
  /** The signing input's bytes. */
  message: Uint8Array;
  /** Where a weak key is reported: the embedded key, or the keyRef that chose a pinned one. */
  keyPointer: string;
}

export function isProfileA(signature: unknown): boolean {
  const s = signature as Record<string, unknown> | null | undefined;
  return (
    typeof s === "object" &&
    s !== null &&
    s.algorithm === PROFILE_A.algorithm &&
    s.canonicalization === PROFILE_A.canonicalization
  );
}

/**
 * The keys decoded, by their SPKI text (the last 1024): a content's manifests name the same
 * few keys again and again, and decoding one cost a tenth of what verifying a signature does.
 */
const decodedKeys = new LruCache<Uint8Array | null>(1024);

/**
 * The raw key in a standard-base64 Ed25519 SPKI, or undefined if it is not exactly one. The
 * bytes are shared by every caller that decodes the same text: read them, never write them.
 */
export function spkiPublicKey(spki: string): Uint8Array | undefined {
  // Only texts of an SPKI's length are kept: a hostile file's megabyte of text is not.
  if (spki.length !== 60) return undefined;
  let key = decodedKeys.get(spki);
  if (key === undefined) {
    key = decodeSpki(spki) ?? null;
    decodedKeys.set(spki, key, 1);
  }
  return key ?? undefined;
}

/** The standard-base64 SPKI of a raw 32-byte Ed25519 key: the prefix is 12 bytes, so the texts join. */
function ed25519Spki(publicKey: Uint8Array): string {
  return ED25519_SPKI_PREFIX + btoa(String.fromCharCode(...publicKey));
}

/**
 * The key known for `keyRef` besides the embedded one (core §1.6.4, step 4). A did:key or
 * did:jwk is its key, resolved here, and no pin can make it name another: a pin that
 * disagrees gives way to the DID, so the embedded key is held to what the DID says. With
 * `pins` the world is otherwise closed: the pin, or nothing. Without, any other method
 * needs a resolver: the key the relying party resolved over the network (`remote`), if any.
 */
export function keyRefKey(keyRef: unknown, pins: KeyPins | undefined, remote?: RemoteKeyRefKey): KeyRefKey | undefined {
  if (typeof keyRef !== "string") return undefined;
  const local = resolveKeyRefLocally(keyRef);
  if (local.kind === "malformed") return { source: "malformed", method: local.method, reason: local.reason };
  const did: KeyRefKey | undefined =
    local.kind === "resolved" ? { source: "did", spki: ed25519Spki(local.publicKey) } : undefined;
  if (pins === undefined)
    return did ?? (remote && { source: "document", spki: ed25519Spki(remote.publicKey), url: remote.documentUrl });
  const pin = pins.keys.get(keyRef);
  if (pin === undefined) return undefined;
  return did !== undefined && did.spki !== pin.spki ? did : { source: "pin", ...pin };
}

function decodeSpki(spki: string): Uint8Array | undefined {
  // The text is compared, not only the bytes: a decoder ignores non-zero bits before the
  // padding, so two spellings would otherwise name one key.
  if (!spki.startsWith(ED25519_SPKI_PREFIX) || !STANDARD_BASE64.test(spki)) return undefined;
  const der = Uint8Array.from(atob(spki), (c) => c.charCodeAt(0));
  return btoa(String.fromCharCode(...der)) === spki ? der.subarray(12) : undefined;
}

/**
 * The problems with a manifest's Profile A signature that need no arithmetic, or the
 * verification still to do. A signature whose shape the schema already rejects (missing,
 * or another profile) is left to the schema: no problems, nothing to verify.
 */
export function prepareProfileA(
  manifest: Record<string, unknown>,
  pins: KeyPins | undefined,
  members?: CanonicalMembers,
  remote?: RemoteKeyRefKey,
): { problems: Problem[]; pending?: PendingVerification } {
  const signature = manifest.signature as Record<string, unknown> | undefined;
  if (!isProfileA(signature)) return { problems: [] };
  const { keyRef, publicKeySpkiB64: embedded } = signature!;

  const problems: Problem[] = [];
  const value = typeof signature!.value === "string" ? decodeBase64url(signature!.value) : undefined;
  if (value === undefined || value.length !== 64) {
    problems.push({
      pointer: "/signature/value",
      rule: "signature/value-encoding",
      message: "must be the unpadded base64url encoding of a 64-byte Ed25519 signature",
    });
  }
  const known = keyRefKey(keyRef, pins, remote);
  let spki: string | undefined;
  if (pins !== undefined && known === undefined) {
    if (pins.unreadable !== true)
      problems.push({
        pointer: "/signature/keyRef",
        rule: "signature/unpinned-key",
        message: unpinnedMessage(keyRef, pins),
      });
  } else if (known?.source === "malformed") {
    problems.push({
      pointer: "/signature/keyRef",
      rule: "signature/keyref-malformed",
      message: `is a did:${known.method} that names no Ed25519 key: ${known.reason}`,
    });
  } else if (embedded === undefined) {
    if (known === undefined) {
      problems.push({
        pointer: "/signature",
        rule: "signature/unverifiable",
        message:
          `no publicKeySpkiB64 is embedded and no _keys.json pins keyRef ` +
          `${quoted(keyRef)}, so the signature cannot be verified`,
      });
    } else {
      spki = known.spki;
    }
  } else if (typeof embedded !== "string" || spkiPublicKey(embedded) === undefined) {
    problems.push({
      pointer: "/signature/publicKeySpkiB64",
      rule: "signature/key-encoding",
      message: "must be the standard base64 encoding of a 44-byte Ed25519 SubjectPublicKeyInfo",
    });
  } else if (known !== undefined && embedded !== known.spki) {
    problems.push(
      known.source === "pin"
        ? {
            pointer: "/signature/publicKeySpkiB64",
            rule: "signature/key-mismatch",
            message:
              `is not the key pinned for keyRef ${quoted(keyRef)} (${known.place}): either the ` +
              `embedded key was substituted, or the pin there was changed`,
          }
        : {
            pointer: "/signature/publicKeySpkiB64",
            rule: "signature/keyref-mismatch",
            message:
              `is not the key keyRef ${quoted(keyRef)} names ` +
              `(${known.source === "did" ? "that DID is its key" : `its DID document, ${known.url}`}): the embedded ` +
              `key was substituted, or the manifest was signed under another key's keyRef`,
          },
    );
  } else {
    spki = embedded;
  }
  const publicKey = spki === undefined ? undefined : spkiPublicKey(spki);
  if (spki !== undefined && publicKey === undefined) {
    problems.push({
      pointer: "/signature/keyRef",
      rule: "signature/key-encoding",
      message: `the key pinned for keyRef ${quoted(keyRef)} is not an Ed25519 SubjectPublicKeyInfo`,
    });
  }
  if (problems.length > 0 || publicKey === undefined || value === undefined) return { problems };
  const keyPointer = embedded === undefined ? "/signature/keyRef" : "/signature/publicKeySpkiB64";
  return {
    problems,
    pending: {
      spki: spki!,
      publicKey,
      signature: value,
      message: utf8(signingInputText(manifest, members)),
      keyPointer,
    },
  };
}

/** What a verifier's verdict means for the manifest. */
export function verdictProblems(verdict: Ed25519Verdict, pending: PendingVerification): Problem[] {
  if (verdict === "weak-key") {
    return [
      {
        pointer: pending.keyPointer,
        rule: "signature/weak-key",
        message:
          "is a small-order or non-canonically encoded Ed25519 key, for which signatures " +
          "verify without any private key: refused",
      },
    ];
  }
  if (verdict === "invalid") {
    return [
      {
        pointer: "/signature/value",
        rule: "signature/invalid",
        message:
          "the Ed25519 signature does not verify over the canonical manifest: the content " +
          "changed after signing, another key signed it, or it is not strictly encoded " +
          "(small-order R, S not below the group order)",
      },
    ];
  }
  return [];
}

function unpinnedMessage(keyRef: unknown, pins: KeyPins): string {
  const near =
    typeof keyRef === "string"
      ? [...pins.keys].find(([pinned]) => pinned.trim().toLowerCase() === keyRef.trim().toLowerCase())
      : undefined;
  const hint =
    near === undefined ? "" : `; ${quoted(near[0])} is pinned at ${near[1].place}, but keyRefs are compared exactly`;
  return (
    `keyRef ${quoted(keyRef)} is not pinned in ${pins.file}: when that file exists, ` +
    `every manifest must be signed with a key pinned there${hint}`
  );
}
