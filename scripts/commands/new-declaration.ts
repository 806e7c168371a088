/**
 * `manifest-resolver new`: a v0.4 manifest skeleton to fill in and sign. Its subject is
 * never made up: a placeholder DID would be signed and published as someone's identity.
 * The declaration: all that --help and a usage error need; the run is new.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { stringOption } from "../cli/options.ts";
import { fileOptions } from "./shared-options.ts";

/** How long a new manifest is valid: consumers refuse it after expiresAt. */
export const LIFETIME_DAYS = 365;

export const newManifest = declareCommand({
  name: "new",
  description: `A v0.4 manifest with a fresh urn:uuid @id, issuedAt now and expiresAt in ${LIFETIME_DAYS} days,
and empty facets, claims, consents and pointers to fill in. Sign it when it is ready.`,
  epilogue: `Exit status: 0 done, 1 not written (the file exists), 2 usage error.

Example:
  manifest-resolver new --subject did:web:alice.example --file content/people/alice/new.jsonld`,
  positionals: [],
  options: {
    subject: stringOption({
      value: "DID",
      help: "the manifest's subject, a URI",
      default: { text: "the DID of the one key the content folder's _keys.json pins, if it pins exactly one" },
    }),
    ...fileOptions("write it there instead of printing it (an existing file is kept)", { text: "printed" }),
  },
});
