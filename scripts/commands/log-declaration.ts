/**
 * `manifest-resolver log`: append what the content now serves to its transparency log, and sign a checkpoint.
 * The declaration: all that --help and a usage error need; the run is log.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { CONTENT_OPTION, CACHE_OPTION, CACHE_ENVIRONMENT } from "./shared-options.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import { listOption, stringOption } from "../cli/options.ts";

export const log = declareCommand({
  name: "log",
  description: `Appends to the content's transparency log (content/_log/, C2SP tlog-tiles) one
entry per UMID whose served state changed since its latest entry (its body's SHA-256 and
active or suspended, revoked, or redirected and where), in UMID order, and signs a new
checkpoint. A run that changes nothing appends nothing and leaves every file as it was
(but for cosignatures it renews: below).
Revocation is permanent: a UMID whose latest entry is its revocation is never logged in
another state (log/revocation-undone), and nothing is written.
The first run creates the log: its checkpoint, tiles and entry bundles, and verifier (the
key clients and monitors verify it with), unless keygen --role log wrote it. Refuses content that check refuses, a key that
is not the log's own, and a log that does not verify. Run it before pushing, as you run
sign: the key never goes to CI.
With content/_log/policy (C2SP tlog-policy: witness lines, groups, one quorum line), it
then asks each witness whose cosignature of the checkpoint is missing or a day old to cosign
it, with a consistency proof from the size that witness last cosigned, and appends the
cosignatures to the checkpoint. A witness that refuses (a fork, a bad proof, an unknown log)
fails the run with its answer, as does a quorum not met: check and build then refuse the
checkpoint (log/unwitnessed) until a later run completes it. A run that changes nothing
renews cosignatures a day old.`,
  epilogue: `Environment:
  UM_RESOLVER_URL        its host names a new log without a logOrigin: <host>${LOG_PREFIX}
  UM_LOCK_WAIT_MS        how long to wait for another edit of the log (default: 10000)
${CACHE_ENVIRONMENT}

Exit status: 0 appended or unchanged (and cosigned by the quorum), 1 refused (content, key,
log, policy or a witness) or the quorum not met, 2 usage error.

Example:
  manifest-resolver log
  manifest-resolver log --key ~/.manifest-keys/log.pem --content content
  manifest-resolver log --witness https://witness1.example/`,
  positionals: [],
  options: {
    key: stringOption({
      value: "PEM",
      help: "the log's Ed25519 private key (PKCS#8 PEM, as keygen --role log writes it)",
      default: { text: "<keysDir>/log.pem" },
    }),
    origin: stringOption({
      value: "ORIGIN",
      help: "the log's name, its checkpoints' first line; set by the first run, kept after",
      default: { text: `the project's logOrigin, else <resolver's host>${LOG_PREFIX}` },
      nonEmpty: true,
    }),
    witness: listOption({
      value: "URL",
      help:
        "ask only this witness of content/_log/policy (its submission URL there), not every witness it lists " +
        "with a URL (repeatable)",
    }),
    ...CONTENT_OPTION,
    ...CACHE_OPTION,
  },
});
