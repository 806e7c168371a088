/**
 * Federated status (EXT-OPT O5): the answers of the primary resolver and of its peers for
 * one manifest, made one. The most restrictive status any of them gave wins (revoked >
 * suspended > active); answers that differ add `um:reason:status:federation-inconsistent`,
 * naming who said what; a peer that gave no status adds
 * `um:reason:status:federation-peer-unavailable` and counts for nothing (never as
 * "active"), unless it lists none for a manifest naming no statusRef (`um:reason:status:not-listed`, which warns of
 * nothing). Only when no one gave a status is the result "unchecked", with the primary's
 * reason (O2.4). A peer's cursor is not the primary's (cursors order one endpoint's
 * answers only, O2.2), so the result carries a cursor only when the primary said what won.
 */
import type { Warning } from "../evaluate/receipt.ts";
import { type StatusAnswer, withWarnings } from "./status-resolution.ts";

/** One resolver's answer: `by` is its base URL. */
export interface Said {
  by: string;
  answer: StatusAnswer;
}

const RESTRICTION = { unchecked: 0, active: 1, suspended: 2, revoked: 3 } as const;

/** The one answer of `primary` and `peers`, with the warnings of the federation. */
export function federatedAnswer(primary: Said, peers: readonly Said[]): StatusAnswer {
  if (peers.length === 0) return primary.answer;
  const warnings: Warning[] = [];
  for (const peer of peers) {
    const { revocation } = peer.answer;
    // A peer that lists no status for a manifest naming no statusRef says what the primary's not-listed says: nothing
    // that lowers an outcome.
    if (revocation.status === "unchecked" && revocation.withoutWarning !== true)
      warnings.push({
        code: "um:reason:status:federation-peer-unavailable",
        rule: "status/federation-peer-unavailable",
        message:
          `federation peer ${peer.by} gave no status (${revocation.code ?? "unchecked"}` +
          `${revocation.message === undefined ? "" : `: ${revocation.message}`}); not counted`,
      });
  }
  const answered = [primary, ...peers].filter((said) => said.answer.revocation.status !== "unchecked");
  if (answered.length === 0) return withWarnings(primary.answer, warnings);
  const winner = answered.reduce((most, said) =>
    RESTRICTION[said.answer.revocation.status] > RESTRICTION[most.answer.revocation.status] ? said : most,
  );
  if (new Set(answered.map((said) => said.answer.revocation.status)).size > 1)
    warnings.push({
      code: "um:reason:status:federation-inconsistent",
      rule: "status/federation-inconsistent",
      message:
        `the resolvers disagree on the manifest's status: ` +
        `${answered.map((said) => `${said.by} ${said.answer.revocation.status}`).join(", ")}; ` +
        `the most restrictive, ${winner.answer.revocation.status}, stands (EXT-OPT O5)`,
    });
  const primaryStatus = primary.answer.revocation;
  // The primary could not be asked, yet a peer answered: why the primary did not is still said.
  if (primaryStatus.status === "unchecked" && primaryStatus.code !== undefined && primaryStatus.withoutWarning !== true)
    warnings.unshift({
      code: primaryStatus.code,
      ...(primaryStatus.rule !== undefined && { rule: primaryStatus.rule }),
      message: `${primaryStatus.message ?? "the primary resolver gave no status"}; a federation peer answered`,
    });
  const { cursor: _, ...answer } = winner.answer;
  const cursor = primaryStatus.status === winner.answer.revocation.status ? primary.answer.cursor : undefined;
  return withWarnings({ ...answer, ...(cursor !== undefined && { cursor }) }, warnings);
}
