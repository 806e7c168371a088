/**
 * Rules the relying party's side reports (`evaluate`, `resolve`; core/evaluate/,
 * core/client/): a manifest that cannot be read at all (the Arrive stage's reason codes,
 * `um:reason:arrive:…`, named without their prefix), and what the client finds in the
 * answers of a resolver.
 */
import type { Rule } from "./rule.ts";

export const RELYING_PARTY_RULES = {
  "arrive:malformed": {
    severity: "error",
    summary: "the manifest is not UTF-8 JSON (the evaluator's Arrive stage)",
    why:
      "The evaluator reads a manifest strictly (core §3.1.1): text that is not UTF-8, " +
      "or a value JSON cannot hold, has no canonical form to verify a signature over, " +
      "so it is rejected.",
    source: "UM v0.4 core §3.1.1; RFC 8259 §8.1",
    fix: "Save the file as UTF-8 JSON; check reports the same file's problems with their rules (json/*).",
  },
  "arrive:too-large": {
    severity: "error",
    summary: "the manifest is larger than the evaluator's size limit",
    why:
      "A relying party bounds what one manifest may cost it (core §6.3): 1 MiB by " +
      "default (the same as check's; §6.3 says 1 MB, a deviation the conformance claim " +
      "states), UM_MAX_MANIFEST_BYTES here.",
    source: "UM v0.4 core §6.3",
    fix:
      "Make the manifest smaller (reference large proofs by URI), or raise " +
      "UM_MAX_MANIFEST_BYTES if you accept larger ones.",
  },
  "arrive:unsupported-version": {
    severity: "error",
    summary: "the manifestVersion has no processing path in a v0.4 evaluator",
    why:
      "A v0.4 evaluator reads v0.4, and v0.3 through the compatibility rules of EXT-T1 " +
      "§T1.6.4; versions 0.1 and 0.2 it must refuse rather than read by rules they " +
      "were not written for (core §1.3.1).",
    source: "UM v0.4 core §1.3.1; EXT-T1 §T1.6.4",
    fix: "Ask for, or publish, the manifest as v0.4.",
  },
  "resolve/media-type": {
    severity: "warning",
    summary: "the manifest was answered with a Content-Type that is not JSON",
    why:
      "A resolver answers a manifest as application/ld+json (contract 4.3); one that " +
      "says text/html, say, is misconfigured, or is not the resolver it claims to be. " +
      "A warning: the body is judged by what it is.",
    source: "contract 4.3",
    fix:
      "If it is your resolver, serve manifests as application/ld+json; " +
      "manifest-resolver build and its edge handler do.",
  },
  "resolve/umid-mismatch": {
    severity: "error",
    summary: "the resolver answered a manifest for another UMID than the one asked",
    why:
      "A relying party that asks for one UMID must not act on another's manifest, however " +
      "well signed: a misrouted or hostile resolver could answer any UMID with a manifest " +
      "it holds. The manifest is rejected, and the receipt says which @id it had.",
    source: "contract 4.3; UM v0.4 core §3.3",
    fix:
      "If it is your resolver, check the content: the file published under this UMID holds " +
      "another @id (manifest-resolver check), or a redirect points at another manifest.",
  },
  "status/not-listed": {
    severity: "note",
    summary: "the manifest names no statusRef, and the resolver lists no status for its UMID",
    why:
      "A manifest with no signature.statusRef is asked about at the resolver's own status endpoint " +
      "(/.well-known/manifest-resolver/status/{UMID_PATH}). A 404 there means the resolver lists no status for " +
      "the UMID (it redirects the UMID elsewhere, or does not serve the endpoint): nobody says whether the " +
      "manifest is active, suspended or revoked. The status is unchecked, recorded as the receipt's " +
      "revocationReason and not as a warning: as with no status to ask at all, it lowers no outcome (EXT-OPT " +
      "O2.4: never a rejection by itself).",
    source: "EXT-OPT O2.1, O2.4",
    fix:
      "Nothing to do as a relying party, unless your policy requires an active status (requireActiveStatus), " +
      "which then rejects. If it is your resolver, publish the manifest there (manifest-resolver build lists " +
      "a status for every manifest it publishes), or sign it with a statusRef.",
  },
  "status/revocation-contradicted": {
    severity: "error",
    summary: "the resolver now answers otherwise for a manifest this client saw revoked",
    why:
      'Revocation is permanent (EXT-OPT O2.3): a later "active" or "suspended" for a ' +
      "UMID once revoked is a contradiction, not a reinstatement, so the client keeps " +
      "it revoked and does not believe the answer.",
    source: "EXT-OPT O2.3",
    fix:
      "Nothing to do as a relying party: the manifest stays rejected. If it is your " +
      "resolver, find out how the revocation was undone (check --base reports it as " +
      "history/unrevoked).",
  },
  "status/cursor-rollback": {
    severity: "warning",
    summary: 'an "active" status with a cursor not newer than the suspension this client saw',
    why:
      "Statuses are ordered by their cursor (EXT-OPT O2.1, O2.2): an answer that ends " +
      "a suspension must be newer than it, else it may be a stale or replayed answer, " +
      "so the client refuses it and the manifest stays suspended.",
    source: "EXT-OPT O2.1, O2.2, O2.3",
    fix:
      "Nothing to do as a relying party: ask again later. If it is your resolver, date " +
      "the reinstatement after the suspension (manifest-resolver reinstate does).",
  },
  "status/list-unverified": {
    severity: "warning",
    summary: "a status list whose proof is not by a key this relying party pinned",
    why:
      "A relying party that pins a did:key (--keys, the library's keys) takes a status list only with an " +
      "eddsa-jcs-2022 proof by a pinned key: a list without one, with one that fails, or by another key could " +
      "be anyone's, so its bits are not read and the status is unchecked (EXT-OPT O2.4: never a rejection " +
      "by itself). So is a signed list with no id: its proof ties its bits to no URL, so it could be any " +
      "list the key signed.",
    source: "VC Bitstring Status List v1.0 §3.2; VC Data Integrity EdDSA Cryptosuites v1.0 §3.3; EXT-OPT O2.4",
    fix:
      "Pin the did:key the publisher signs its lists with (the verificationMethod of the list's proof). If it " +
      "is your resolver, build with UM_STATUS_LIST_KEY set to that key.",
  },
  "status/origin-not-allowed": {
    severity: "warning",
    summary:
      "the manifest's statusRef is on an origin this relying party does not take status from, so it is not asked",
    why:
      "signature.statusRef lies outside the signing input (core §1.6.3): whoever serves a copy of a manifest " +
      "can point it at a status of their own, one that never says revoked. A relying party that names the " +
      "origins status must come from (--status-origin) does not ask any other, nor follow a redirect to " +
      "another origin (an allowed origin's redirect, a redirected UMID's, may lead anywhere): the status is " +
      "unchecked.",
    source: "UM v0.4 core §1.6.3; EXT-OPT O2.1, O2.4",
    fix:
      "Resolve the manifest at its publisher's resolver, or add the statusRef's origin with --status-origin " +
      "if you trust it to say the manifest's status.",
  },
  "status/local-address": {
    severity: "warning",
    summary: "the manifest's statusRef, or a redirect from it, leads to a local or private address",
    why:
      "signature.statusRef lies outside the signing input (core §1.6.3), and a redirect's Location is the " +
      "server's word: a remote resolver could make the relying party send requests to its own machine or " +
      "network (loopback, 0.0.0.0, 10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10, 198.18/15, fc00::/7, fe80::/10, " +
      "an IPv4 address mapped or embedded in IPv6 (NAT64, 6to4), however spelt). Such a URL is not asked when the resolver is not " +
      "itself on a local or private address, and the status is unchecked (EXT-OPT O2.4).",
    source: "UM v0.4 core §1.6.3; EXT-OPT O2.1, O2.4",
    fix:
      "Resolve the manifest at its publisher's resolver. If you run the resolver on your own network, give " +
      "its local address as the base URL.",
  },
  "status/foreign-origin": {
    severity: "warning",
    summary: "the manifest's statusRef is on another origin than the resolver's",
    why:
      "signature.statusRef lies outside the signing input (core §1.6.3), so the resolver that served the " +
      "manifest chose where its status is asked. A statusRef elsewhere than the resolver is asked, but a " +
      "relying party should know: a copy served by another resolver may point at a status that never says " +
      "revoked. The transparency log (--log-key) binds the whole served body, statusRef included.",
    source: "UM v0.4 core §1.6.3; EXT-OPT O2.1",
    fix: "Name the origins status may come from with --status-origin (the library's statusOrigins).",
  },
  "status/federation-inconsistent": {
    severity: "warning",
    summary: "the federated resolvers gave different statuses for the manifest",
    why:
      "With federation each resolver is asked, the most restrictive answer wins (revoked, then suspended, " +
      "then active), and a disagreement is recorded, naming who said what (EXT-OPT O5): one of them is " +
      "stale, or not telling the truth.",
    source: "EXT-OPT O5",
    fix: "Nothing to do as a relying party: the most restrictive status stands. Tell the resolvers' operators.",
  },
  "status/federation-peer-unavailable": {
    severity: "warning",
    summary: "a federated resolver gave no status for the manifest",
    why:
      "A peer that cannot be asked, or that does not know the manifest, says nothing: its silence is never " +
      "taken as active (EXT-OPT O5), so the status is what the others answered.",
    source: "EXT-OPT O5, O2.4",
    fix: "Ask again later, or federate with a peer that publishes the manifest's status.",
  },
  "status/federation-discovery-failed": {
    severity: "warning",
    summary: "the resolver's discovery document (/.well-known/um-resolvers) could not be read",
    why:
      "--federate-discover takes the federation's peers from the primary resolver's discovery document " +
      "(EXT-OPT O5); one that is missing or malformed names none, and only the peers named by --federate " +
      "are asked. So is one naming more than 16 peers (each would be asked at once), or a peer on a local or " +
      "private address (loopback, 0.0.0.0, 10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10, 198.18/15, fc00::/7, " +
      "fe80::/10, however spelt) when the resolver is not on one (it would aim the client's requests at its " +
      "own machine or network).",
    source: "EXT-OPT O5",
    fix:
      "Name the peers with --federate. If it is your resolver, publish content/_resolvers.json " +
      "(its resolver's DID, and each peer's url and did).",
  },
} satisfies Record<string, Rule>;
