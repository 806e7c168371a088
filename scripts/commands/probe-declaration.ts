/**
 * `manifest-resolver probe`: check a running resolver against the contract.
 * The declaration: all that --help and a usage error need; the run is probe.ts.
 */
import { declareCommand } from "../cli/command.ts";

export const probe = declareCommand({
  name: "probe",
  description: `Checks health, the descriptor, the 400, 404 and 405 answers and the CORS preflight; then,
for each UMID, whatever it resolves to: a 200 whose ETag is the SHA-256 of its body, with
a working 304, HEAD and b64u: path; or a 307 whose Location keeps the rule of
_routes.json (see redirect --help); or a 410. And for each, its status document: active or
suspended for a 200, revoked for a 410, none (404) for a 307, with a working 304. One line
per check, then a summary. Run it against a deploy preview before merging.`,
  epilogue: `Exit status: 0 every check passed, 1 a check failed (probing stops at the first request
that gets no answer), 2 usage error.

Example:
  manifest-resolver probe http://127.0.0.1:8787 urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f`,
  settings: false,
  positionals: [
    { name: "BASE_URL", required: true },
    { name: "UMID", repeatable: true, nonEmpty: true },
  ],
  options: {},
});
