/**
 * `manifest-resolver sign`: fill in a manifest's Profile A signature.
 * The declaration: all that --help and a usage error need; the run is sign.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { CONTENT_OPTION } from "./shared-options.ts";
import { booleanOption, stringOption } from "../cli/options.ts";

export const sign = declareCommand({
  name: "sign",
  description: `Fills in each manifest's signature (a DIR: every manifest file in it, as build finds them) (Ed25519 over the JCS canonical manifest, with
publicKeySpkiB64 and created) and rewrites the file in its own indentation style. With
--status-base (or the project's resolverUrl), also its statusRef: the manifest's status URL at that
resolver, where relying parties check whether it was revoked or suspended. With
--status-list, the statusRef is instead an entry of a status list at that resolver
(<list URL>#<index>): one list serves many manifests, so fetching it tells the resolver
nothing of which one a relying party checks. Each UMID gets an entry at random, kept in
the content folder's _status/ (and keeps it when signed again); build publishes the lists.
Refuses a file that fails validation for any other reason than its signature, and, for
a file in the content folder that has a _keys.json, a KEYREF it does not pin or a key
whose public half is not the one pinned for KEYREF; other files are still signed.`,
  epilogue: `Exit status: 0 all signed, 1 a file refused or the key unusable, 2 usage error.

Example:
  manifest-resolver sign content
  manifest-resolver sign content/people --key tests/fixtures/sample-signing-key.TEST-ONLY.pem --key-ref did:web:localhost%3A8787#test-key-1`,
  positionals: [{ name: "FILE|DIR", required: true, repeatable: true }],
  options: {
    key: stringOption({
      value: "PEM",
      help: "the Ed25519 private key (PKCS#8 PEM, as keygen writes it)",
      default: { text: "<keysDir>/signing.pem, which keygen writes" },
    }),
    "key-ref": stringOption({
      value: "KEYREF",
      help: "the signature's keyRef, e.g. did:web:you.example#key-1",
      default: { text: "the project's signingKeyRef, which keygen sets" },
      nonEmpty: true,
    }),
    "status-base": stringOption({
      value: "URL",
      help:
        "the resolver that will serve these manifests (https:, or http: to a loopback " +
        "host; no credentials, query or fragment): statusRef becomes " +
        "URL/.well-known/manifest-resolver/status/{UMID}",
      default: { text: "the project's resolverUrl; none: statusRef is kept" },
    }),
    "status-list": booleanOption({
      help:
        "give each manifest an entry of a status list at the status base (allocated in " +
        "the content folder's _status/) as its statusRef, instead of its own status URL " +
        "(default: the project's statusLists)",
    }),
    content: { ...CONTENT_OPTION.content, help: "the content folder" },
  },
});
