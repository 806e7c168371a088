/**
 * `manifest-resolver keygen`: a new Ed25519 key for one role, written outside the repository, and its public half
 * written where that role needs it.
 * The declaration: all that --help and a usage error need; the run is keygen.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { stringOption } from "../cli/options.ts";
import { fileOptions } from "./shared-options.ts";

export const keygen = declareCommand({
  name: "keygen",
  description: `Writes a new Ed25519 private key for one role as a PKCS#8 PEM file readable by its
owner only, in the keys folder outside the repository (keysDir in manifest-resolver.json;
else ~/.manifest-keys/<the repository folder's name>/), as <role>.pem. Then it writes the
key's public half where the role needs it, and prints what, if anything, goes in your
CI's secrets:
  signing      pinned in content/_keys.json under its keyRef, which becomes the project's
               signingKeyRef (what sign uses). CI needs no signing key.
  log          content/_log/verifier, the transparency log's key, named by the log's
               origin (logOrigin, else the resolver's host); the key stays off CI.
  status-list  statusListKey (its did:key) in manifest-resolver.json, with statusLists
               on; CI gets the key as UM_STATUS_LIST_KEY.
  witness      nothing else: witness serve --key takes it, and prints its cosigner key.
The private key is never printed, never written into the content folder (by its real
path: not through a symbolic link either), and an existing file is never overwritten.
Make each key for one role alone.`,
  epilogue: `Exit status: 0 written, 1 not written (the file exists, or is in content/; the keyRef is pinned already; the log has a key), 2 usage error.

Examples:
  manifest-resolver keygen                    a signing key, pinned under the default keyRef
  manifest-resolver keygen --key-ref did:web:you.example#key-2
  manifest-resolver keygen --role log         the log's key, and its verifier
  manifest-resolver keygen --role status-list --file ~/secrets/status-list.pem`,
  positionals: [],
  options: {
    role: stringOption({
      value: "ROLE",
      help:
        "what the key is for: signing (manifests), log (the transparency log's), status-list (the status " +
        "lists') or witness (a witness's, to cosign logs' checkpoints)",
      default: "signing",
    }),
    ...fileOptions("where to write the private key", { text: "<keysDir>/<ROLE>.pem" }),
    "key-ref": stringOption({
      value: "KEYREF",
      help:
        "the keyRef to sign with (signing keys only): the key is pinned under it. Default: the project's " +
        "signingKeyRef, else did:web:<resolver's host>#key-1, else the key's own did:key.",
      nonEmpty: true,
    }),
  },
});
