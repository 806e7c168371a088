/**
 * The key that signs the status lists a build publishes (issue 27): `UM_STATUS_LIST_KEY`, an Ed25519 private key as
 * PEM text or the path of a PEM file (keygen writes one). Its proofs are eddsa-jcs-2022 (core/crypto/eddsa-jcs-2022.ts)
 * by the key's did:key, so a relying party that pins the key needs nothing else to verify a list.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from "node:crypto";
import { decodeBase64url } from "../../core/base64url.ts";
import { ed25519DidKey, ed25519Multibase } from "../../core/did/did-key.ts";
import { loadPrivateKey } from "./profile-a.ts";

export const STATUS_LIST_KEY_VARIABLE = "UM_STATUS_LIST_KEY";

export interface StatusListSigner {
  /** The key's did:key: the lists' issuer. */
  did: string;
  /** `did:key:z6Mk…#z6Mk…`: the proof's verificationMethod. */
  verificationMethod: string;
  /** Ed25519 over `data`. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** The signer `value` (the variable's value) names; undefined when it is unset; what is wrong with it, as a string. */
export async function statusListSigner(value: string | undefined): Promise<StatusListSigner | string | undefined> {
  if (value === undefined || value.trim() === "") return undefined;
  const key = await privateKey(value);
  if (typeof key === "string") return `${STATUS_LIST_KEY_VARIABLE}: ${key}`;
  const x = createPublicKey(key).export({ format: "jwk" }).x!;
  const publicKey = decodeBase64url(x)!;
  const did = ed25519DidKey(publicKey);
  return {
    did,
    verificationMethod: `${did}#${ed25519Multibase(publicKey)}`,
    sign: async (data) => new Uint8Array(sign(null, data, key)),
  };
}

/** PEM text as it is, anything else as the path of a PEM file. */
async function privateKey(value: string): Promise<KeyObject | string> {
  if (!value.includes("-----BEGIN")) return loadPrivateKey(value);
  try {
    const key = createPrivateKey(value);
    return key.asymmetricKeyType === "ed25519" ? key : `a ${key.asymmetricKeyType} key; status lists need Ed25519`;
  } catch {
    return "not a PEM private key";
  }
}
