/**
 * A receipt's `receiptId` (core §3.3.1): named by its content, so the same evaluation
 * gives the same id and receipts stay byte-comparable (with `omitProcessedAt`), and any
 * change to a receipt changes its id: `urn:um:receipt:sha256:` and the unpadded base64url
 * SHA-256 of the JCS (RFC 8785) of the receipt without `receiptId`.
 */
import { encodeBase64url, utf8 } from "../base64url.ts";
import { canonicalize } from "../crypto/jcs.ts";
import { sha256 } from "../crypto/runtime-crypto.ts";
import type { Receipt } from "./receipt.ts";

const RECEIPT_ID_PREFIX = "urn:um:receipt:sha256:";

/** `receipt` with its `receiptId`, placed after `@type`. */
export async function withReceiptId(receipt: Omit<Receipt, "receiptId">): Promise<Receipt> {
  const digest = await sha256(utf8(canonicalText(receipt)));
  const { "@type": type, ...rest } = receipt;
  return { "@type": type, receiptId: RECEIPT_ID_PREFIX + encodeBase64url(digest), ...rest };
}

/**
 * The JCS of `receipt`; for one quoting a value JCS cannot hold (a lone surrogate in an
 * `@id` of a manifest given to the library as an object), its JSON, which escapes it.
 */
function canonicalText(receipt: Omit<Receipt, "receiptId">): string {
  try {
    return canonicalize(receipt);
  } catch {
    return JSON.stringify(receipt);
  }
}
