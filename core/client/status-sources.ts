/**
 * Where a manifest's status is asked (EXT-OPT O2, O5): its `signature.statusRef`, a status
 * endpoint (status-resolution.ts) or an entry of a status list (status-list-resolution.ts),
 * and, with federation, the same question moved to each peer resolver, all at once. A
 * manifest that names no statusRef is asked at the resolver's own status endpoint for its
 * UMID, where the resolver lists the status of each UMID it publishes; a 404 there is
 * `um:reason:status:not-listed` (rule `status/not-listed`), which lowers no outcome.
 *
 * The statusRef lies outside the signing input (core §1.6.3): whoever serves a copy of a
 * manifest can point it at a status of their own. With `statusOrigins`, a statusRef on any
 * other origin is not asked ("unchecked", `um:reason:status:origin-not-allowed`); without,
 * one on another origin than the resolver's is asked, with the warning
 * `um:reason:status:foreign-origin`. With `statusOrigins` a redirect to another origin is
 * not followed either (origin-not-allowed). Without `statusOrigins`, a statusRef on a local or
 * private address (core/secure-url.ts) is not asked when the resolver is not on one
 * (`um:reason:status:local-address`): whoever serves the copy would aim the client at its own
 * machine or network. An origin named in `statusOrigins` is the relying party's own choice.
 *
 * Every status source is held to `statusOrigins` when it is set: the statusRef, each peer,
 * named or discovered, and the redirects of each (issue 37: a mirror listing its own peer in
 * its discovery document must not make its "active" stand in for the "unchecked" the rule
 * gave its statusRef). A peer not asked so counts for nothing (federation.ts).
 *
 * A peer P is asked (the brief's format 5) where the primary's statusRef points, moved to
 * P: a list under the primary's base URL at the same path and index under P; anything else
 * at P's status endpoint for the UMID. `discover` adds the peers the primary's discovery
 * document names (discovered-peers.ts); one that cannot be read is a warning.
 */
import type { Warning } from "../evaluate/receipt.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { listEntryRef, listStatusRef } from "../status-list/list-entry-ref.ts";
import { pointsInward } from "../secure-url.ts";
import { STATUS_LIST_PREFIX, statusPath } from "../umid-path.ts";
import type { Said } from "./federation.ts";
import {
  endpointStatus,
  revocationFloor,
  unchecked,
  withWarnings,
  type StatusAnswer,
  type StatusRequest,
} from "./status-resolution.ts";

export interface StatusPolicy {
  /** The primary resolver's base URL, without a trailing slash. */
  base: string;
  /** The only origins a statusRef may name; undefined: any, with a warning for one not the resolver's. */
  statusOrigins: ReadonlySet<string> | undefined;
  /** Peer resolvers' base URLs, without a trailing slash. */
  peers: readonly string[];
  /** Also take the peers the primary's discovery document names. */
  discover: boolean;
  /** The did:key DIDs a status list's proof must be by; undefined: lists are trusted by their origin. */
  listKeys: ReadonlySet<string> | undefined;
}

/**
 * The status of `manifest` (verified, its @id the UMID) by `policy`. One that names no statusRef is asked at the
 * resolver's own status endpoint (and the peers' likewise); undefined when it is not asked there, as `statusOrigins`
 * leaves out the resolver's origin.
 */
export async function resolveStatus(
  manifest: Record<string, unknown>,
  request: StatusRequest,
  policy: StatusPolicy,
): Promise<StatusAnswer | undefined> {
  const signature = isJsonObject(manifest.signature) ? manifest.signature : {};
  const umid = String(manifest["@id"]);
  const named = typeof signature.statusRef === "string" ? signature.statusRef : undefined;
  // The resolver lists the status of each UMID it publishes: a relying party that takes status from other origins
  // only does not ask it, and gets what no status to ask gives, as before the resolver listed any.
  if (
    named === undefined &&
    policy.statusOrigins !== undefined &&
    !policy.statusOrigins.has(new URL(policy.base).origin)
  )
    return undefined;
  const statusRef = named ?? policy.base + statusPath(umid);
  // A peer's copy of a list is the primary's list: its credential's id is the statusRef's list URL, not the peer's.
  const listId = listEntryRef(statusRef)?.listUrl;
  // Status lists and federation are loaded only for a manifest or a policy that uses them (their own chunks).
  const ask = async (ref: string, within: StatusRequest) => {
    const entry = listEntryRef(ref);
    if (entry === undefined) return endpointStatus(ref, manifest, within, named === undefined);
    const { listStatus } = await import("./status-list-resolution.ts");
    return listStatus(entry, { ...within, listKeys: policy.listKeys, floor: revocationFloor(manifest) }, listId);
  };
  /** Why `ref`, where `what` is asked, is not asked at all: undefined when it is. */
  const refusal = (ref: string, what: string, from: string): StatusAnswer | undefined => {
    const origin = URL.canParse(ref) ? new URL(ref).origin : undefined;
    if (policy.statusOrigins !== undefined)
      return origin !== undefined && policy.statusOrigins.has(origin)
        ? undefined
        : unchecked(
            "origin-not-allowed",
            `${what} ${JSON.stringify(ref)} is not on an origin this relying party takes status from ` +
              `(${[...policy.statusOrigins].join(", ")}): not asked`,
            "status/origin-not-allowed",
          );
    return pointsInward(ref, from)
      ? unchecked(
          "local-address",
          `${what} ${JSON.stringify(ref)} is on a local or private address, and the resolver ${from} is not: not asked`,
          "status/local-address",
        )
      : undefined;
  };
  // An allowed origin's redirect elsewhere (a redirected UMID's, say) would take status from an origin not allowed.
  const asked = async (ref: string, what: string, from: string) =>
    refusal(ref, what, from) ?? ask(ref, { ...request, sameOrigin: policy.statusOrigins !== undefined });
  const warnings: Warning[] = [];
  const primary = asked(statusRef, "the statusRef", policy.base);
  const origin = URL.canParse(statusRef) ? new URL(statusRef).origin : undefined;
  if (policy.statusOrigins === undefined && origin !== undefined && origin !== new URL(policy.base).origin)
    warnings.push({
      code: "um:reason:status:foreign-origin",
      rule: "status/foreign-origin",
      message:
        `the statusRef ${JSON.stringify(statusRef)} is on ${origin}, not on the resolver's origin: ` +
        "whoever serves the manifest chose it (the statusRef is outside the signing input)",
    });
  const peers = peersOf(policy, request).then(({ peers, problem }) => {
    if (problem !== undefined)
      warnings.push({
        code: "um:reason:status:federation-discovery-failed",
        rule: "status/federation-discovery-failed",
        message: `the peers of ${policy.base} were not discovered: ${problem}`,
      });
    return Promise.all(
      peers.map(
        async (by): Promise<Said> => ({
          by,
          answer: await asked(peerRef(statusRef, umid, policy.base, by), `peer ${by}'s status`, by),
        }),
      ),
    );
  });
  const [answer, said] = await Promise.all([primary, peers]);
  if (said.length === 0) return withWarnings(answer, warnings);
  const { federatedAnswer } = await import("./federation.ts");
  return withWarnings(federatedAnswer({ by: policy.base, answer }, said), warnings);
}

/** The peers named and, with `discover`, those discovered, each once; and why none were discovered. */
async function peersOf(policy: StatusPolicy, request: StatusRequest): Promise<{ peers: string[]; problem?: string }> {
  const found = policy.discover
    ? await (await import("./discovered-peers.ts")).discoveredPeers(policy.base, request)
    : { peers: [] };
  const discovered = "problem" in found ? [] : found.peers.map((url) => url.replace(/\/+$/, ""));
  const peers = [...new Set([...policy.peers, ...discovered])].filter((peer) => peer !== policy.base);
  return { peers, ...("problem" in found && { problem: found.problem }) };
}

/** Where peer `peer` is asked what `statusRef` answers at the primary `base` (format 5). */
function peerRef(statusRef: string, umid: string, base: string, peer: string): string {
  const entry = listEntryRef(statusRef);
  if (entry?.listUrl.startsWith(`${base}${STATUS_LIST_PREFIX}/`))
    return listStatusRef(peer + entry!.listUrl.slice(base.length), entry!.index);
  return peer + statusPath(umid);
}
