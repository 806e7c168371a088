/**
 * The card above the checklist: what the manifest is about and who signed it, when, until
 * when, and its status now, as a certificate viewer's summary. Read off the manifest as it
 * came; the checklist says how far each value can be trusted.
 */
import type { AnsweredStatus } from "../core/client/index.ts";
import type { Receipt } from "../core/evaluate/index.ts";
import { instantWords, shortened } from "./words.ts";

export type SummaryField = "umid" | "subject" | "signer" | "issued" | "expires" | "status";

export interface SummaryRow {
  field: SummaryField;
  label: string;
  value: string;
}

/** A UMID or DID as the card prints it: the full UMID is in one collapsed block of its own. */
const MAX_ID = 72;

export function summary(
  umid: string,
  receipt: Receipt | undefined,
  manifest: Record<string, unknown> | undefined,
  status: AnsweredStatus | undefined,
): SummaryRow[] {
  const rows: SummaryRow[] = [{ field: "umid", label: "UMID", value: shortened(umid, MAX_ID) }];
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const add = (field: SummaryField, label: string, value: string | undefined) => {
    if (value !== undefined) rows.push({ field, label, value });
  };
  const signature = manifest?.signature as Record<string, unknown> | undefined;
  const keyRef = text(signature?.keyRef);
  add(
    "subject",
    "Subject",
    mapped(text(manifest?.subject), (s) => shortened(s, MAX_ID)),
  );
  add(
    "signer",
    "Signed by",
    mapped(keyRef, (k) => shortened(k.split("#")[0]!, MAX_ID)),
  );
  add("issued", "Issued", mapped(text(manifest?.issuedAt), instantWords));
  add("expires", "Expires", mapped(text(manifest?.expiresAt), instantWords));
  add("status", "Status", receipt === undefined ? undefined : statusWords(receipt.revocationStatus, status));
  return rows;
}

function mapped(value: string | undefined, map: (value: string) => string): string | undefined {
  return value === undefined ? undefined : map(value);
}

function statusWords(revocationStatus: Receipt["revocationStatus"], seen: AnsweredStatus | undefined): string {
  if (revocationStatus === "unchecked") return "not checked";
  const since = seen?.since === undefined || revocationStatus === "active" ? "" : ` since ${instantWords(seen.since)}`;
  const because = seen?.reason === undefined ? "" : `: ${seen.reason}`;
  return `${revocationStatus}${since}${because}`;
}
