/**
 * `manifest-resolver keygen`: a new Ed25519 key, and what to do with it for its role. A
 * signing key is pinned in content/_keys.json; the log's key and the status lists' key
 * are pinned nowhere there (a second entry under the signing keyRef is json/duplicate-key,
 * and a pin would let the key sign manifests), so their advice is where each is given.
 * The declaration: all that --help and a usage error need; the run is keygen.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { stringOption } from "../cli/options.ts";

/** The keyRef printed when none is given: an example to replace. */
export const EXAMPLE_KEY_REF = "did:web:you.example#key-1";

export const keygen = declareCommand({
  name: "keygen",
  description: `Writes a new Ed25519 private key as a PKCS#8 PEM file readable by its owner only
(missing folders are made, owner-only too), and prints the public key with what to put
in content/_keys.json to pin it: the whole file when it pins nothing yet, else the entry
to add. It also prints the key's did:key (a keyRef that is the key) and, for a did:web
KEYREF, the verification method to list in that DID's did.json. The private key is never
printed, never written into the repository's content folder (by its real path: not
through a symbolic link either, and not from a folder inside it), and an existing file is
never overwritten. Keep it out of git (*.pem is ignored here) and in your CI's secrets.
With --role log the key is a transparency log's (log --key), with --role status-list the
status lists' (UM_STATUS_LIST_KEY): neither is pinned in content/_keys.json, and it prints
where each goes instead. Make each key for one role alone.`,
  epilogue: `Exit status: 0 written, 1 not written (the file exists, or is in content/), 2 usage error.

Examples:
  manifest-resolver keygen --out ~/.manifest-keys/signing.pem --key-ref did:web:you.example#key-1
  manifest-resolver keygen --role log --out ~/.manifest-keys/log.pem
  manifest-resolver keygen --role status-list --out ~/.manifest-keys/status-list.pem`,
  positionals: [],
  options: {
    out: stringOption({ value: "FILE", help: "where to write the private key", default: "signing-key.pem" }),
    "key-ref": stringOption({
      value: "KEYREF",
      help: "the keyRef you will sign with",
      default: { text: `${EXAMPLE_KEY_REF}, to replace` },
      nonEmpty: true,
    }),
    role: stringOption({
      value: "ROLE",
      help:
        "what the key is for: signing (manifests, pinned in content/_keys.json), log (the transparency " +
        "log's, for log --key) or status-list (the status lists', for UM_STATUS_LIST_KEY)",
      default: "signing",
    }),
  },
});
