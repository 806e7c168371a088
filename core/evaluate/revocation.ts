/**
 * Verify step 3, revocation status (core §3.1.2, §1.6.6; EXT-OPT O2.3, O2.4): what the
 * status a relying party resolved (core/client/ resolves `signature.statusRef`) means for
 * the receipt. The evaluator does no I/O: it is given the result. `revoked` rejects
 * (O2.3: MUST); `suspended` is a non-critical warning, so at best accepted-with-warnings
 * (O2.3: SHOULD); `unchecked` with a reason is a non-critical warning too, as O2.4 forbids
 * rejecting a manifest only because its status endpoint could not be asked. The reason's
 * registry code is recorded as `revocationReason` (§3.3.1) and as the warning's code.
 * An `unchecked` given `withoutWarning` (a status nobody lists) records its code as `revocationReason` only.
 * Without a result, "unchecked" is recorded: with O2.4's `um:reason:status:offline` and its
 * warning when the manifest names a `statusRef` nobody asked, and nothing else when it names
 * none, as by an evaluator that does not resolve status (§1.6.6). A relying party whose policy requires an active status
 * (the context's `requireActiveStatus`) rejects any other, `unchecked` included (§1.6.6:
 * "if revocation status cannot be determined and policy requires active status, the
 * manifest MUST be rejected for use").
 */
import { warn, type Evaluation } from "./evaluation.ts";
import { WARNING_CODE } from "./receipt.ts";
import type { Receipt } from "./receipt.ts";
import type { Revocation } from "./revocation-input.ts";

const DEFAULTS: Record<Receipt["revocationStatus"], { code?: string; message: string }> = {
  active: { message: "" },
  revoked: { code: "um:reason:status:revoked", message: "the manifest's status is revoked (EXT-OPT O2.3): rejected" },
  suspended: {
    code: "um:reason:status:suspended",
    message: "the manifest's status is suspended (EXT-OPT O2.3): accepted at most with warnings",
  },
  unchecked: { message: "the manifest's revocation status could not be determined" },
};

/** Verify step 3: records `ev.revocation`; false when it rejects the manifest. */
export function verifyRevocation(ev: Evaluation): boolean {
  if (ev.revocation !== undefined) recordRevocation(ev, ev.revocation);
  else if (typeof (ev.manifest.signature as Record<string, unknown>).statusRef === "string")
    // A status that could be asked and was not: offline, in O2.4's words, which a relying party must hear of.
    recordRevocation(ev, {
      status: "unchecked",
      code: "um:reason:status:offline",
      message: "the manifest names a statusRef that was not asked (offline evaluation): its status is unknown",
    });
  const status = ev.receipt.revocationStatus;
  if (ev.context.requireActiveStatus && status !== "active" && status !== "revoked")
    warn(ev, true, {
      code: "um:reason:status:active-required",
      message: `this relying party's policy requires an active status (core §1.6.6), and it is ${status}: rejected`,
    });
  return !ev.rejected;
}

/** Records a status in the receipt: revocationStatus, and for all but "active" its reason and a warning. */
export function recordRevocation(ev: Pick<Evaluation, "receipt" | "rejected">, revocation: Revocation): void {
  const { status } = revocation;
  const code = revocation.code ?? DEFAULTS[status].code;
  if (code !== undefined && status !== "active" && !WARNING_CODE.test(code)) {
    throw new RangeError(`revocation.code ${JSON.stringify(code)} is not a registry code, um:reason:<category>:<code>`);
  }
  ev.receipt.revocationStatus = status;
  if (revocation.resolvedBy !== undefined && status !== "unchecked")
    ev.receipt.revocationResolvedBy = revocation.resolvedBy;
  if (status !== "active" && code !== undefined) {
    ev.receipt.revocationReason = code;
    if (status !== "unchecked" || revocation.withoutWarning !== true)
      warn(ev, status === "revoked", {
        code,
        message: revocation.message ?? DEFAULTS[status].message,
        ...(revocation.rule !== undefined && { rule: revocation.rule }),
      });
  }
  for (const warning of revocation.warnings ?? []) warn(ev, false, warning);
}
