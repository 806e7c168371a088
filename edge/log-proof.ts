/**
 * Offline proofs (issue 41): at `PROOF_PREFIX/{UMID_PATH}`, the C2SP tlog-proof of the UMID's latest log entry, with
 * the checkpoint as served (witnessed, when witnesses cosigned it) and, as extra data, the UMID's latest-map bucket
 * and its entry (core/tlog/latest-proof.ts): all a client needs to check, offline, that a manifest's body is the
 * latest the log records (core/client/offline-proof.ts).
 *
 * A proof is composed here, on request, from the log's files the route table routes (the checkpoint, one bucket, one
 * entry bundle, the tiles of the inclusion proof), never stored: every append changes the checkpoint and so every
 * UMID's proof, and a file per UMID would have a warm build rewrite them all. The build writes nothing for proofs.
 * The files are read through the routed documents' caches, so a warm proof costs no read, and its ETag is the digest
 * of its bytes, as every answer's.
 *
 * A manifest answer links to its proof (`Link`, relation TLOG_PROOF_RELATION) when the deploy serves a log. Whether
 * it does is the route table's row for the checkpoint: read once per record store, on the first UMID request, beside
 * that request's record lookup, then kept (RoutedDocuments.servesLog), so no manifest answer waits on a read for it.
 * The link names the UMID_PATH as it was asked (the proof endpoint takes the same paths), relative to the manifest's
 * URL: `<.well-known/manifest-resolver/log/proof/{UMID_PATH}>`.
 */
import { utf8 } from "../core/base64url.ts";
import { LOG_PROOF } from "../core/served-kinds.ts";
import { latestProof } from "../core/tlog/latest-proof.ts";
import type { TileStore } from "../core/tlog/tile-hashes.ts";
import { LOG_PREFIX, parseUmidPath, PROOF_PREFIX } from "../core/umid-path.ts";
import { ifNoneMatchMatches } from "./conditional.ts";
import { etagOf } from "./etag.ts";
import type { RecordStore } from "./records.ts";
import { type Answer, routedAnswer, routedNotModified, uncachedJson } from "./responses.ts";

/** Whether `pathname` asks for an offline proof (a bad UMID_PATH after the prefix included: that is a 400). */
export function isProofPath(pathname: string): boolean {
  return pathname === PROOF_PREFIX || pathname.startsWith(`${PROOF_PREFIX}/`);
}

/**
 * The reference to the proof a manifest answer at `pathname` (a resolve path) links to: relative to the manifest's
 * URL, so that it holds for a resolver below a base path (whose host strips the base before the handler sees it) as
 * for one at its host's root.
 */
export function proofLinkOf(pathname: string): string {
  return PROOF_PREFIX.slice(1) + pathname;
}

/**
 * The answer to a proof path: the proof, or 304 for it; 400 for a bad UMID_PATH, as the resolve endpoint's; 404 when
 * the deploy serves no log or its log has no entry for the UMID; 500 when a file it needs is not what the build wrote.
 */
export async function proofAnswer(pathname: string, ifNoneMatch: string | null, records: RecordStore): Promise<Answer> {
  const parsed = parseUmidPath(pathname.slice(PROOF_PREFIX.length));
  if ("error" in parsed) return uncachedJson(400, { error: "bad_request", message: parsed.error });
  const { umid } = parsed;
  let corrupt = false;
  const store: TileStore = {
    read: async (path) => {
      const document = await records.routes.document(`${LOG_PREFIX}/${path}`, records.blob);
      if (document?.kind !== "corrupt") return document?.body;
      corrupt = true;
      return undefined;
    },
  };
  const proof = await latestProof(store, umid);
  if (proof === undefined)
    return corrupt
      ? uncachedJson(500, { error: "corrupt_record", umid })
      : uncachedJson(404, { error: "not_found", umid });
  const body = utf8(proof);
  const served = { ...LOG_PROOF, etag: await etagOf(body) };
  return ifNoneMatchMatches(ifNoneMatch, served.etag) ? routedNotModified(served) : routedAnswer(body, served);
}
