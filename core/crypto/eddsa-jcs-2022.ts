/**
 * The `eddsa-jcs-2022` Data Integrity cryptosuite (W3C Data Integrity EdDSA Cryptosuites
 * v1.0, §3.3): Ed25519 over SHA-256(JCS(proof configuration)) ‖ SHA-256(JCS(document)),
 * the proof's `proofValue` the signature in multibase base58btc (`z`). The proof carries
 * the document's `@context` (Create Proof step 2), and verification holds the document to
 * it (Verify Proof step 4). Only a did:key verification method is read: it is the key, so
 * no resolver is asked; whether that key is one the relying party trusts is its caller's
 * question.
 */
import { utf8 } from "../base64url.ts";
import { decodeBase58btc, encodeBase58btc } from "../did/base58btc.ts";
import { resolveKeyRefLocally } from "../did/resolve-key-ref.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { isDateTime } from "../date-time.ts";
import { canonicalize } from "./jcs.ts";
import { sha256, verifyEd25519 } from "./runtime-crypto.ts";

const EDDSA_JCS_2022 = "eddsa-jcs-2022";

export interface ProofOptions {
  /** A DID URL naming the key, `did:key:z6Mk…#z6Mk…`. */
  verificationMethod: string;
  /** RFC 3339; omitted when undefined. */
  created?: string;
  /** Default "assertionMethod". */
  proofPurpose?: string;
}

/** `document` with an eddsa-jcs-2022 proof by `sign` (Ed25519 of the bytes it is given). */
export async function addEddsaJcs2022Proof(
  document: Record<string, unknown>,
  options: ProofOptions,
  sign: (hashData: Uint8Array) => Promise<Uint8Array>,
): Promise<Record<string, unknown>> {
  const { proof: _, ...unsecured } = document;
  const proof: Record<string, unknown> = {
    type: "DataIntegrityProof",
    cryptosuite: EDDSA_JCS_2022,
    ...(options.created !== undefined && { created: options.created }),
    verificationMethod: options.verificationMethod,
    proofPurpose: options.proofPurpose ?? "assertionMethod",
    ...(unsecured["@context"] !== undefined && { "@context": unsecured["@context"] }),
  };
  const signature = await sign(await hashData(unsecured, proof));
  return { ...unsecured, proof: { ...proof, proofValue: `z${encodeBase58btc(signature)}` } };
}

export type ProofVerdict =
  | { verified: true; verificationMethod: string; publicKey: Uint8Array }
  | { verified: false; problem: string };

/** Whether `document`'s one proof is a valid eddsa-jcs-2022 proof for `purpose` by the key its did:key names. */
export async function verifyEddsaJcs2022Proof(
  document: Record<string, unknown>,
  purpose = "assertionMethod",
): Promise<ProofVerdict> {
  const failed = (problem: string): ProofVerdict => ({ verified: false, problem });
  const { proof, ...unsecured } = document;
  if (proof === undefined) return failed("it has no proof");
  if (!isJsonObject(proof)) return failed("its proof is not one object (proof sets are not read)");
  const { proofValue, ...options } = proof;
  if (options.type !== "DataIntegrityProof" || options.cryptosuite !== EDDSA_JCS_2022)
    return failed(`its proof is not a DataIntegrityProof of cryptosuite ${EDDSA_JCS_2022}`);
  if (options.proofPurpose !== purpose) return failed(`its proof's proofPurpose is not ${purpose}`);
  if (options.created !== undefined && !isDateTime(options.created))
    return failed("its proof's created is not an RFC 3339 date-time");
  const signature =
    typeof proofValue === "string" && proofValue.startsWith("z") && proofValue.length <= 100
      ? decodeBase58btc(proofValue.slice(1))
      : undefined;
  if (signature?.length !== 64) return failed("its proof's proofValue is not a base58btc Ed25519 signature");
  if (typeof options.verificationMethod !== "string" || !options.verificationMethod.startsWith("did:key:"))
    return failed("its proof's verificationMethod is not a did:key");
  const key = resolveKeyRefLocally(options.verificationMethod);
  if (key.kind !== "resolved") return failed("its proof's verificationMethod names no Ed25519 key");
  if (options["@context"] !== undefined) {
    // Verify Proof step 4: the document's @context must start with the proof's.
    const proofContext = arrayOf(options["@context"]);
    const documentContext = arrayOf(unsecured["@context"]);
    if (
      !proofContext.every(
        (item, i) => i < documentContext.length && canonicalize(item) === canonicalize(documentContext[i]),
      )
    )
      return failed("its @context does not start with its proof's @context");
    unsecured["@context"] = options["@context"];
  }
  const verdict = await verifyEd25519(key.publicKey, await hashData(unsecured, options), signature);
  return verdict === "valid"
    ? { verified: true, verificationMethod: options.verificationMethod, publicKey: key.publicKey }
    : failed(`its proof's signature is ${verdict === "weak-key" ? "by a weak key" : "not valid"}`);
}

/** §3.3.4 Hashing: SHA-256 of the canonical proof configuration, then of the canonical document. */
async function hashData(unsecured: Record<string, unknown>, proofConfig: Record<string, unknown>): Promise<Uint8Array> {
  const proofHash = await sha256(utf8(canonicalize(proofConfig)));
  const documentHash = await sha256(utf8(canonicalize(unsecured)));
  const joined = new Uint8Array(64);
  joined.set(proofHash, 0);
  joined.set(documentHash, 32);
  return joined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
