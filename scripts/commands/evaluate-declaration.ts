/**
 * `manifest-resolver evaluate`: the relying party's six-stage evaluation of one manifest
 * file (core/evaluate/), its receipt on stdout. The same module runs in any runtime; this
 * is its Node front end: files, flags, exit statuses, and the diagnostics a person reads.
 * The declaration: all that --help and a usage error need; the run is evaluate.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { CONTEXT_OPTION } from "./context-option.ts";
import {
  httpCacheOptions,
  LOG_POLICY_OPTIONS,
  offlineOptions,
  RECEIPT_KEY_OPTIONS,
  KEYS_OPTION,
} from "./shared-options.ts";
import { booleanOption, stringOption } from "../cli/options.ts";

export const evaluateCommand = declareCommand({
  name: "evaluate",
  description: `Runs the six-stage evaluation of Universal Manifest v0.4 (Arrive, Verify, Project,
Consent, Compose, Receipt) on FILE and prints the structured receipt on stdout: the
outcome, and every check with its result (docs/library.md).`,
  epilogue: `A manifest that cannot be read as one (not JSON, a structural fault) also gets its
problems on stderr as 'file:line:col - error RULE: message'; a short summary follows
there when stderr is a terminal.

Environment: UM_STANDARDS_URL, UM_MAX_MANIFEST_BYTES, UM_MAX_DEPTH, UM_MAX_ARRAY_ITEMS,
as for 'manifest-resolver build --help'.

With --proof and --log-policy, FILE must also be the latest state the resolver's
transparency log records for its UMID, as the proof (a C2SP tlog-proof, served at
/.well-known/manifest-resolver/log/proof/<UMID>) shows under the policy: the log's
signature, a quorum of fresh witness cosignatures, the entry's inclusion and its place in
the latest map. Nothing is fetched for it. A proof that fails rejects FILE with its
log/* rule (log/not-latest: a superseded body).

Exit status: 0 accepted (also with warnings, or partially), 1 rejected or the receipt
key unusable, 2 usage error.

Examples:
  manifest-resolver evaluate content/people/alice/profile.jsonld --context '{"verifierChallenge":"n-0451","verifierAudience":"did:web:venue.example"}'
  manifest-resolver evaluate alice.jsonld --proof alice.tlog-proof --log-policy resolver.policy --offline`,
  positionals: [{ name: "FILE", required: true }],
  options: {
    ...CONTEXT_OPTION,
    now: stringOption({ value: "DATE-TIME", help: 'the clock (RFC 3339), overriding the context\'s "now"' }),
    ...KEYS_OPTION,
    ...offlineOptions(
      'resolve no keyRef over the network: only did:key, did:jwk and --keys (a did:web keyRef is then "unresolved")',
      "a did:web keyRef's DID document is fetched (https:, or http: to localhost), and the embedded key held to the " +
        "one it lists under assertionMethod (core §1.6.4, step 4)",
    ),
    ...httpCacheOptions("keep the DID documents fetched in DIR, reused by their Cache-Control max-age and ETag", {
      text: "kept in memory for this run",
    }),
    ...RECEIPT_KEY_OPTIONS,
    proof: stringOption({
      value: "PROOF",
      help: "a tlog-proof of FILE's UMID: FILE must be its latest logged state (needs --log-policy)",
    }),
    ...LOG_POLICY_OPTIONS,
    json: booleanOption({ help: "the receipt on one line", default: { text: "indented" } }),
  },
});
