/**
 * `--receipt-key PEM --receipt-key-ref KEYREF` of `evaluate` and `resolve`: the receipt
 * printed as a signed receipt manifest (core §3.3.1 `receiptSignature`, §3.3.2; EXT-OPT
 * O3), a record the relying party keeps of what it decided and anyone verifies with
 * `evaluate`. The manifest is core/evaluate/receipt-manifest.ts's, signed here with Node's
 * Ed25519 as `sign` signs. The two options go together: one alone is a usage error. The
 * key is read as `sign` reads its --key, and a key that cannot be used is reported as
 * `sign` reports it (one line on stderr, exit 1), before anything is evaluated; so is a
 * did:key or did:jwk KEYREF that names another key, whose receipts would never verify.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { keyRefKey } from "../../core/crypto/profile-a.ts";
import { receiptManifest, type Receipt, type ReceiptManifest } from "../../core/evaluate/index.ts";
import { quoted } from "../../core/excerpt.ts";
import type { Settings } from "../config.ts";
import { loadPrivateKey, signProfileA } from "../crypto/profile-a.ts";
import { UsageError } from "../cli/command.ts";

export type SignedReceiptManifest = ReceiptManifest & { signature: Record<string, string> };

/** The receipt as printed: a signed receipt manifest with a receipt key, else the receipt itself. */
export type ReceiptOutput = (receipt: Receipt, now: Date) => Promise<Receipt | SignedReceiptManifest>;

/**
 * What `values` make of each receipt, or why the key cannot be used (for a `manifest-resolver:` line); throws
 * UsageError for one option without the other.
 */
export async function receiptKeyOption(
  values: { "receipt-key": string | undefined; "receipt-key-ref": string | undefined },
  settings: Settings,
): Promise<ReceiptOutput | string> {
  const { "receipt-key": path, "receipt-key-ref": keyRef } = values;
  if (path === undefined && keyRef === undefined) return async (receipt) => receipt;
  if (path === undefined || keyRef === undefined) {
    const missing = path === undefined ? "--receipt-key PEM" : "--receipt-key-ref KEYREF";
    throw new UsageError(`--receipt-key PEM and --receipt-key-ref KEYREF go together: ${missing} is missing`);
  }
  const key = await loadPrivateKey(path);
  if (typeof key === "string") return key;
  const problem = keyRefProblem(keyRef, key, path);
  if (problem !== undefined) return problem;
  const hash = keyRef.indexOf("#");
  const evaluator = hash > 0 ? keyRef.slice(0, hash) : keyRef;
  return async (receipt, now) => {
    const manifest = await receiptManifest(receipt, { evaluator, now, standardsUrl: settings.standardsUrl });
    return { ...manifest, signature: signProfileA(manifest, key, keyRef, new Date(manifest.issuedAt)) };
  };
}

/** Why receipts signed with `key` under a did:key or did:jwk `keyRef` would be rejected, if they would. */
function keyRefProblem(keyRef: string, key: KeyObject, path: string): string | undefined {
  const named = keyRefKey(keyRef, undefined);
  if (named?.source === "malformed")
    return (
      `--receipt-key-ref ${quoted(keyRef)} is a did:${named.method} that names no Ed25519 key ` +
      `(${named.reason}): its receipts would be rejected (rule signature/keyref-malformed)`
    );
  const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
  if (named !== undefined && named.spki !== spki)
    return (
      `--receipt-key-ref ${quoted(keyRef)} names another key than ${path}: its receipts ` +
      `would be rejected (rule signature/keyref-mismatch)`
    );
  return undefined;
}
