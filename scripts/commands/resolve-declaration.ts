/**
 * `manifest-resolver resolve`: the relying party's client (core/client/) from a shell:
 * resolve a UMID at a resolver (contract §4.3), follow its redirect, resolve the
 * manifest's status (EXT-OPT O2), evaluate it (core §3.1), and print the receipt. The
 * library runs in any runtime; this is its Node front end: flags, a cache in files, exit
 * statuses, and the summary a person reads.
 * The declaration: all that --help and a usage error need; the run is resolve.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { httpCacheOptions, LOG_POLICY_OPTIONS, RECEIPT_KEY_OPTIONS, KEYS_OPTION } from "./shared-options.ts";
import { CONTEXT_OPTION } from "./context-option.ts";
import { booleanOption, listOption, stringOption } from "../cli/options.ts";

export const resolveCommand = declareCommand({
  name: "resolve",
  description: `Asks the resolver at BASE_URL for UMID (following a redirect, at most 5, over https: or
loopback http: only), resolves the manifest's signature.statusRef, or without one the
resolver's own status endpoint for UMID (active, suspended or revoked; an endpoint that
cannot be asked leaves the status "unchecked", with a warning, never a rejection; a
resolver that lists none, "unchecked" with the reason um:reason:status:not-listed and no
warning), evaluates it as 'evaluate' does, and
prints the receipt on stdout. A did:web keyRef is resolved (see --offline): its DID
document must list the manifest's key under assertionMethod. A UMID the resolver answers
410 for gets a rejected receipt with revocationStatus "revoked". A manifest answered with
a Content-Type that is not JSON (application/ld+json, application/json, +json) gets a
warning (rule resolve/media-type). Once a manifest's body arrived there is always a
receipt: one for another UMID is rejected (rule resolve/umid-mismatch).

With --log-key, every answer is proven against the resolver's transparency log
(BASE_URL/.well-known/manifest-resolver/log/): it must be the UMID's latest state
in a checkpoint the key signed (a body of the logged SHA-256, a status endpoint
agreeing with its state, a redirect to its location, a 410 for "revoked"), and,
with --http-cache, that checkpoint must extend the largest one seen before (and, of
its size, be that one). Otherwise the receipt is rejected, exit 1, with the rule
that failed: log/not-latest (not the latest logged state, or none logged),
log/unproven (the log proves nothing), log/inconsistent (an older or rewritten
log, or a second view of one tree) or log/revocation-undone (a state logged after
the log revoked the UMID).

A log key alone proves what the log signed, not that it shows you the view it shows
everyone else (a split view): it prints a warning on stderr saying so. With
--log-policy FILE instead (C2SP tlog-policy), the checkpoint must also be cosigned by
the policy's quorum of witnesses, each cosignature at most --max-cosignature-age old:
otherwise log/unwitnessed (naming the witnesses missing), log/stale-cosignature (a
quorum only of older cosignatures) or log/unproven (a cosignature that does not
verify, a log the policy does not list).

A signature.statusRef of the form <list URL>#<index> is an entry of a W3C Bitstring
Status List: the list is fetched (kept for its ttl, at most a day, never past its
validUntil, then revalidated by its ETag) and the entry's two bits read. When --keys
pins a did:key, a list counts only with an eddsa-jcs-2022 proof by a pinned did:key
(otherwise "unchecked", um:reason:status:list-unverified); without, it is trusted by
its origin, as a status document is (the receipt's revocationResolvedBy names it).

The statusRef is outside the signing input: whoever serves a copy chose it. With
--status-origin, a statusRef on another origin is not asked, nor a federation peer, nor a
redirect to another origin followed ("unchecked", rule status/origin-not-allowed); without,
one not on BASE_URL's origin is asked with a warning (rule status/foreign-origin), and one
on a local or private address BASE_URL is not on is not asked (rule status/local-address). With --federate (and --federate-discover), each
peer resolver is asked too: the most restrictive status wins, a disagreement is a
warning (status/federation-inconsistent), and a peer that gives none is a warning
(status/federation-peer-unavailable), never taken as active.

BASE_URL must be https:, or http: to localhost, 127.0.0.0/8 or [::1].`,
  epilogue: `A UMID that cannot be resolved (404, 5xx, unreachable, a redirect refused) prints
one line on stderr: 'manifest-resolver: <why>'. A short summary
of the receipt follows on stderr when stderr is a terminal.

Environment: UM_STANDARDS_URL, UM_MAX_MANIFEST_BYTES, UM_MAX_DEPTH, UM_MAX_ARRAY_ITEMS,
as for 'manifest-resolver build --help'.

Exit status: 0 accepted (also with warnings, or partially), 1 rejected, not
resolvable or the receipt key unusable, 2 usage error.

Example:
  manifest-resolver resolve http://127.0.0.1:8787 urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f --http-cache ~/.cache/manifest-resolver`,
  positionals: [
    { name: "BASE_URL", required: true },
    { name: "UMID", required: true, nonEmpty: true },
  ],
  options: {
    context: { ...CONTEXT_OPTION.context, help: "the evaluation context, as for 'manifest-resolver evaluate --help'" },
    purpose: CONTEXT_OPTION.purpose,
    facet: CONTEXT_OPTION.facet,
    now: stringOption({
      value: "DATE-TIME",
      help: 'the clock (RFC 3339), overriding the context\'s "now"; every cache decision is taken at this clock too',
    }),
    ...KEYS_OPTION,
    ...RECEIPT_KEY_OPTIONS,
    ...httpCacheOptions(
      "keep responses in DIR (created if need be) and reuse them: a manifest within " +
        "its max-age and expiresAt, a status within its nextCheck, and otherwise " +
        "revalidated with If-None-Match. DIR/memory/, apart, remembers the statuses seen, " +
        "which no response evicts: a UMID seen revoked stays revoked whatever a later answer " +
        "says (rule status/revocation-contradicted when it says otherwise), and a suspension " +
        "ends only by an answer with a newer cursor (an older one: rule " +
        "status/cursor-rollback). With --log-key or --log-policy, it remembers the largest checkpoint of the " +
        "log seen, and the revocations the log proved. It holds at most 100,000 statuses and " +
        "1,000 logs, and forgets no revocation: when full, what is new is not remembered, " +
        "with a warning. A DIR that cannot be read or written costs one warning on stderr.",
      { text: "no cache, nothing remembered" },
    ),
    offline: booleanOption({
      help:
        "resolve no keyRef over the network: only did:key, did:jwk and --keys (a did:web " +
        'keyRef is then "unresolved")',
      default: { text: "a did:web keyRef's DID document is fetched, and kept in --http-cache" },
    }),
    "log-key": stringOption({
      value: "VKEY",
      help:
        "the verifier key of the resolver's transparency log, <origin>+<keyid>+<key> " +
        "(the resolver's content/_log/verifier), or a FILE holding it: prove each answer " +
        "against the log, as above",
      default: { text: "no log is read, unless --log-policy names it" },
    }),
    ...LOG_POLICY_OPTIONS,
    "status-origin": listOption({
      value: "ORIGIN",
      help:
        "take status only from ORIGIN (https://status.example), repeatable: a statusRef or a federation peer " +
        'elsewhere is not asked, and the status is "unchecked" (rule status/origin-not-allowed)',
    }),
    federate: listOption({
      value: "URL",
      help:
        "also ask the resolver at URL (its status list where the statusRef names one of BASE_URL's, else its " +
        "status endpoint) for the UMID's status, at once with BASE_URL; repeatable (EXT-OPT O5)",
    }),
    "federate-discover": booleanOption({
      help:
        "also ask the peers BASE_URL/.well-known/um-resolvers names (a document that cannot be read is a " +
        "warning, rule status/federation-discovery-failed)",
      default: { text: "only the peers named by --federate" },
    }),
    json: booleanOption({ help: "the receipt on one line", default: { text: "indented" } }),
  },
});
