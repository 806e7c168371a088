/**
 * `_resolvers.json` is history too (issue 37, section D): a relying party with
 * `--federate-discover` asks each peer it names for a manifest's status, the most
 * restrictive answer winning. A peer added can make every manifest read revoked or
 * suspended; one removed, or moved to another url, no longer reports a revocation only it
 * knows of. So, against the revision, `history/peers-changed` (a warning): a peer added or
 * removed, its url or its did changed, the resolver's DID changed, or the document
 * deleted, is allowed but never silent; the pull request summary lists it after the key
 * pins and the opt-ins. A document every client refuses names no peer: one refused at the
 * revision made no client ask anyone, and one refused now has its own errors.
 */
import { quoted } from "../../core/excerpt.ts";
import type { ResolversList } from "../check/resolvers-document.ts";
import { placed } from "../read/source.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";

interface Peer {
  url: string;
  did: string;
  /** Its place in its document's `peers`. */
  index: number;
}

/** A peer listed at one end and not the same at the other: undefined where it is not listed. */
interface PeerChange {
  before: Peer | undefined;
  now: Peer | undefined;
}

/** What `now`'s discovery document changes from `before`'s. */
export interface DiscoveryChanges {
  /** The resolver's DID before (undefined: no document taken) and now (undefined: deleted), when it changed. */
  resolver: { before: string | undefined; now: string | undefined } | undefined;
  /** Those listed now, in `now`'s order, then those removed, in `before`'s. */
  peers: PeerChange[];
  /** The revision's document, when the file is gone now. */
  deleted: ResolversList | undefined;
}

const NONE: DiscoveryChanges = { resolver: undefined, peers: [], deleted: undefined };

/**
 * The changes of `now` against `before`. A peer is the same peer when its url and did are both kept, or, failing
 * that, either of them: then the other changed.
 */
export function discoveryChanges(before: ResolverState, now: ResolverState): DiscoveryChanges {
  const was = before.discovery?.unreadable === true ? undefined : before.discovery;
  const is = now.discovery;
  if (is?.unreadable === true || (was === undefined && is === undefined)) return NONE;
  const left: (Peer | undefined)[] = (was?.peers ?? []).map((peer, index) => ({ ...peer, index }));
  const unmatched: Peer[] = [];
  const changes: PeerChange[] = [];
  const take = (match: (peer: Peer) => boolean): Peer | undefined => {
    const at = left.findIndex((peer) => peer !== undefined && match(peer));
    if (at === -1) return undefined;
    const peer = left[at];
    left[at] = undefined;
    return peer;
  };
  for (const [index, peer] of (is?.peers ?? []).entries())
    if (take((old) => old.url === peer.url && old.did === peer.did) === undefined) unmatched.push({ ...peer, index });
  for (const peer of unmatched)
    changes.push({ before: take((old) => old.url === peer.url) ?? take((old) => old.did === peer.did), now: peer });
  for (const peer of left) if (peer !== undefined) changes.push({ before: peer, now: undefined });
  return {
    resolver: was?.resolver === is?.resolver ? undefined : { before: was?.resolver, now: is?.resolver },
    peers: changes,
    deleted: is === undefined ? was : undefined,
  };
}

/** The warnings of the rule: at the peer in the document now, or at the revision's for one removed or deleted. */
export function resolversProblems(before: ResolverState, now: ResolverState, revision: string): Diagnostic[] {
  const { resolver, peers, deleted } = discoveryChanges(before, now);
  const asked = "relying parties that discover peers (--federate-discover)";
  if (deleted !== undefined) {
    const listed = deleted.peers.map(named).join(", ");
    return [
      diagnostic(
        "history/peers-changed",
        { file: deleted.file },
        `_resolvers.json was published at ${revision} and is gone now, with the ${deleted.peers.length} peer(s) ` +
          `it listed${listed === "" ? "" : ` (${listed})`}: ${asked} ask none of them any more; ` +
          `make sure that is meant`,
      ),
    ];
  }
  const document = now.discovery!;
  const problems: Diagnostic[] = [];
  if (resolver !== undefined)
    problems.push(
      placed(
        document,
        "/resolver",
        "history/peers-changed",
        `the resolver's DID is ${quoted(resolver.now!)} now, ` +
          `${resolver.before === undefined ? "and no document named one" : quoted(resolver.before)} at ${revision}: ` +
          `make sure it is this resolver's`,
      ),
    );
  for (const { before: old, now: peer } of peers) {
    if (peer === undefined) {
      problems.push(
        placed(
          before.discovery!,
          `/peers/${old!.index}`,
          "history/peers-changed",
          `peer ${named(old!)} was listed here at ${revision} and is not now: ${asked} no longer ask it, ` +
            `nor hear of a revocation only it reports; make sure that is meant`,
        ),
      );
      continue;
    }
    const message =
      old === undefined
        ? `peer ${named(peer)} is new, and was not listed at ${revision}: ${asked} now ask it for the status ` +
          `of every manifest, and its answer counts in their verdict; make sure it is a resolver you trust`
        : old.url === peer.url
          ? `peer ${quoted(peer.url)} has the DID ${quoted(peer.did)} now, ${quoted(old.did)} at ${revision}: ` +
            `make sure the peer is still the resolver you trust`
          : `peer ${quoted(peer.did)} is at ${quoted(peer.url)} now, ${quoted(old.url)} at ${revision}: ` +
            `${asked} now ask the new url for the status of every manifest; make sure it is that peer's`;
    problems.push(placed(document, `/peers/${peer.index}`, "history/peers-changed", message));
  }
  return problems;
}

/** A peer as a message names it: its url and its did. */
function named({ url, did }: { url: string; did: string }): string {
  return `${quoted(url)} (${quoted(did)})`;
}
