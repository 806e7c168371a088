/**
 * `manifest-resolver monitor`: audit the transparency log a resolver serves, hold it to the
 * checkpoint saved from the last run, and print the UMIDs whose state changed since.
 * The declaration: all that --help and a usage error need; the run is monitor.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import { booleanOption, listOption, stringOption } from "../cli/options.ts";
import { LOG_POLICY_OPTIONS } from "./shared-options.ts";

export const monitor = declareCommand({
  name: "monitor",
  description: `Audits the transparency log the resolver at BASE serves at
BASE${LOG_PREFIX}/ (C2SP tlog-tiles): its checkpoint must
verify with the log's key, every entry bundle and tile must hash to the checkpoint's
root (the tiles first, then each bundle against its tile as it arrives, so that a host
that inflates bundles is refused at the first), no state may follow a UMID's logged
revocation (revocation is permanent), and the latest map (which entry is each UMID's
latest) must be the one the entries make, in the checkpoint and in every bucket file
served. With --state, the checkpoint
must also be consistent with the one the last run saved: the log only grew, the old tree
a prefix of the new one. Then it saves the new checkpoint to FILE, and prints one line per
UMID whose latest entry changed since the saved checkpoint (every UMID on a first run):
the UMID, its old state and its new one. A state is 'active:<sha256>' or
'suspended:<sha256>' (the SHA-256 of the served body), 'revoked', 'redirected:<location>',
or '-' for none. A last line gives the checkpoint's size and root.

Run it on a schedule against production: a split view (another history shown to this
monitor than before) or a rewritten log then fails the run, and every change of state is
seen by someone other than the publisher.

--log-key alone checks the log's signature (with a warning on stderr that a split view
shown to this monitor alone goes undetected). With --log-policy FILE instead (C2SP
tlog-policy), the checkpoint must be signed by one of its logs and cosigned by its quorum
of witnesses, each cosignature at most --max-cosignature-age old (log/unwitnessed,
log/stale-cosignature); --json then adds "witnessed": {"cosigned", "of"}.`,
  epilogue: `Output:
  urn:uuid:…  - -> active:Ktd9…
  urn:uuid:…  active:Ktd9… -> revoked
  https://resolver.example/…/log/checkpoint verified: size 8, root …; 2 UMIDs changed since size 6

An inconsistency prints one line on stderr naming the file at fault and its rule
(log/bad-checkpoint, log/unwitnessed, log/stale-cosignature, log/tile-mismatch,
log/map-mismatch, log/inconsistent, log/revocation-undone; see 'manifest-resolver
explain RULE'), and FILE is left as it was.

Exit status: 0 the log verified (FILE saved), 1 an inconsistency, an answer other than 200
or 404, no answer, or FILE not saved, 2 usage error.

Examples:
  manifest-resolver monitor https://resolver.example --log-key "$LOG_VKEY" --state log.checkpoint
  manifest-resolver monitor https://resolver.example --log-key ./log-verifier --umid urn:example:alice`,
  settings: false,
  positionals: [{ name: "BASE", required: true }],
  options: {
    "log-key": stringOption({
      value: "VKEY",
      help:
        "the log's signed-note verifier key, <origin>+<keyid>+<key>, or a file holding it (the log's " +
        "content/_log/verifier); its name is the log's origin. This or --log-policy is required",
      default: { text: "--log-policy's log" },
    }),
    ...LOG_POLICY_OPTIONS,
    state: stringOption({
      value: "FILE",
      help:
        "the checkpoint saved by the last run (none yet: a first run): the log must be consistent with it; " +
        "replaced by the new checkpoint once the log verifies",
      default: { text: "every run is a first run" },
    }),
    umid: listOption({
      value: "UMID",
      help: "print only this UMID's change (repeatable), or that the log has no entry for it",
    }),
    json: booleanOption({
      help:
        'print one JSON object on stdout instead: {"ok": true, "checkpoint": {"size", "root"}, "since", ' +
        '"changes": [{"umid", "before", "after"}], "notLogged": [UMID]} (before and after: log entries, before ' +
        'null for none), or {"ok": false, "rule", "url", "message"} (rule and url null when the log is not at fault)',
      default: { text: "lines of text" },
    }),
  },
});
