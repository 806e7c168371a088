/**
 * A receipt as a first-class manifest (core §3.3.2, EXT-OPT O3): the receipt fields of
 * §3.3.1 inside the common envelope, `@type` ["um:Manifest", "um:Receipt"], and the
 * evaluator as its `subject` (O3: the receipt records the evaluator's own act; the manifest
 * it processed is `manifestId`). Unsigned: signed with Profile A as any manifest is, it is
 * a record the relying party can keep, and anyone can verify with `evaluate`.
 *
 * Its `@id` is derived from its content, a name-based UUIDv8 over SHA-256 (RFC 9562
 * §5.8, Appendix B.2): the same receipt made into a manifest twice is one manifest, and
 * receipts of two evaluations (another `processedAt`) never share an `@id`, which thus
 * correlates nothing beyond the receipt itself (core §3.2, identifier rotation). It is
 * issued at the receipt's `processedAt` (else `now`) and lives 24 hours, as the Cookbook's
 * receipt manifests do: long enough to act on, while its statement about a manifest whose
 * status may change is current. An archived one still verifies (signature "valid",
 * freshness "expired": EXT-OPT O3.1, verifying an archived chain).
 */
import { utf8 } from "../base64url.ts";
import { canonicalize } from "../crypto/jcs.ts";
import { sha256 } from "../crypto/runtime-crypto.ts";
import { DEFAULT_STANDARDS_URL } from "./evaluate.ts";
import type { Receipt } from "./receipt.ts";

const RECEIPT_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type ReceiptManifest = {
  "@context": string;
  "@id": string;
  "@type": ["um:Manifest", "um:Receipt"];
  manifestVersion: "0.4";
  /** The evaluator that made the receipt. */
  subject: string;
  issuedAt: string;
  expiresAt: string;
} & Omit<Receipt, "@type">;

export interface ReceiptManifestOptions {
  /** The evaluator, the manifest's `subject`: the DID whose key signs it, say. */
  evaluator: string;
  /** `issuedAt` for a receipt without `processedAt` (`omitProcessedAt`). Default: the wall clock. */
  now?: Date;
  /** The standards site whose `/ns/v0.4` is the `@context`. Default `DEFAULT_STANDARDS_URL`. */
  standardsUrl?: string;
}

/** The receipt manifest of `receipt`, to be signed. Throws RangeError for an empty `evaluator`. */
export async function receiptManifest(receipt: Receipt, options: ReceiptManifestOptions): Promise<ReceiptManifest> {
  if (options.evaluator === "") throw new RangeError("a receipt manifest's evaluator (its subject) must not be empty");
  const { "@type": _receiptType, ...fields } = receipt;
  const issued = receipt.processedAt === undefined ? (options.now ?? new Date()) : new Date(receipt.processedAt);
  const standardsUrl = (options.standardsUrl ?? DEFAULT_STANDARDS_URL).replace(/\/+$/, "");
  const envelope = {
    "@context": `${standardsUrl}/ns/v0.4`,
    "@type": ["um:Manifest", "um:Receipt"] as ["um:Manifest", "um:Receipt"],
    manifestVersion: "0.4" as const,
    subject: options.evaluator,
    issuedAt: issued.toISOString(),
    expiresAt: new Date(issued.getTime() + RECEIPT_LIFETIME_MS).toISOString(),
  };
  const id = await contentUuid({ ...envelope, ...fields });
  const { "@context": context, ...rest } = envelope;
  return { "@context": context, "@id": id, ...rest, ...fields };
}

/** `urn:uuid:` of the UUIDv8 made of the first 128 bits of SHA-256 of the JCS canonical form (RFC 9562 B.2). */
async function contentUuid(content: Record<string, unknown>): Promise<string> {
  const bits = (await sha256(utf8(canonicalize(content)))).slice(0, 16);
  bits[6] = (bits[6]! & 0x0f) | 0x80; // version 8
  bits[8] = (bits[8]! & 0x3f) | 0x80; // variant 10
  const hex = Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
