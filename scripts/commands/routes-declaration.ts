/**
 * `manifest-resolver revoke`, `redirect`, `suspend` and `reinstate`: safe edits of
 * `_routes.json`. The file must be valid before the edit and is validated again after it
 * (against the manifests too); entries keep their order and new ones go last; a UMID is
 * never listed twice; the file is replaced atomically, in its own indentation style. A
 * status change is dated strictly after the status it ends (the status cursor, which
 * core/status/status-document.ts derives from that date, must increase), and revocation is permanent
 * (EXT-OPT O2.3).
 * The declaration: all that --help and a usage error need; the run is routes.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { CONTENT_OPTION } from "./shared-options.ts";
import { booleanOption, stringOption } from "../cli/options.ts";

/** The UMID every edit names. */
const UMID = { name: "UMID", required: true, nonEmpty: true } as const;

export const revoke = declareCommand({
  name: "revoke",
  description: `Adds UMID to the revoked list of _routes.json, with revokedAt now. A revoked UMID answers
410 Gone, and a manifest file for it is no longer published. A redirected UMID is not
revoked: remove its redirect first. A UMID that no manifest in the content folder
publishes is refused, naming the nearest ones that are (a typo must not leave the
intended UMID live), unless --unpublished says it is meant; one that differs from a
published UMID only in letter case is refused even then.`,
  epilogue: `Exit status: 0 revoked (or already), 1 refused or _routes.json invalid, 2 usage error.

Example:
  manifest-resolver revoke urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f --reason "key compromised"`,
  positionals: [UMID],
  options: {
    reason: stringOption({ value: "TEXT", help: "why, kept in _routes.json for the record" }),
    unpublished: booleanOption({
      help: "revoke a UMID that no manifest here publishes (one published elsewhere, or before)",
    }),
    ...CONTENT_OPTION,
  },
});

export const suspend = declareCommand({
  name: "suspend",
  description: `Adds UMID to the suspended list of _routes.json, with suspendedAt now. The manifest is
still served (200), and its status document says "suspended": relying parties that check
status accept it with a warning (EXT-OPT O2.3). Undo it with 'manifest-resolver
reinstate'. Only a UMID that a manifest in the content folder publishes can be suspended.`,
  epilogue: `Exit status: 0 suspended (or already), 1 refused or _routes.json invalid, 2 usage error.

Example:
  manifest-resolver suspend urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f --reason "under review"`,
  positionals: [UMID],
  options: {
    reason: stringOption({
      value: "TEXT",
      help: "why, served in the status document (one line, at most 200 characters)",
    }),
    ...CONTENT_OPTION,
  },
});

export const reinstate = declareCommand({
  name: "reinstate",
  description: `Ends the suspension of UMID: its entry moves from the suspended list of _routes.json to
the reinstated list, with reinstatedAt now, so that its status document says "active"
again from that instant. A revoked UMID is refused: revocation is permanent (EXT-OPT O2.3).`,
  epilogue: `Exit status: 0 reinstated (or not suspended), 1 refused or _routes.json invalid, 2 usage error.

Example:
  manifest-resolver reinstate urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f`,
  positionals: [UMID],
  options: CONTENT_OPTION,
});

export const redirect = declareCommand({
  name: "redirect",
  description: `Adds (or updates) the redirect of UMID to URL in _routes.json. The UMID then answers 307
with Location: URL, so URL must be an absolute https URL (or http to a loopback host: the
only ones clients follow) naming a host, with no credentials, printable ASCII, at most
8 KiB, as written (not as a URL parser would repair it), and not on a local or private
address unless UM_RESOLVER_URL is on one too. A UMID that a manifest file publishes, or that is revoked, is not redirected, nor
one that differs from a published UMID only in letter case.`,
  epilogue: `Exit status: 0 redirected (or already), 1 refused or _routes.json invalid, 2 usage error.

Example:
  manifest-resolver redirect urn:uuid:3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a https://manifests.example.org/3d2c1b0a`,
  positionals: [UMID, { name: "URL", required: true }],
  options: CONTENT_OPTION,
});
