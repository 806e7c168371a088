/** Rules of `_routes.json` (scripts/check/routes.ts) and of it against the manifests (check-content.ts). */
import type { Rule } from "./rule.ts";

export const ROUTES_RULES = {
  "routes/duplicate": {
    severity: "error",
    summary: "a UMID is listed twice in one list of _routes.json",
    why:
      "A UMID has one fate: two entries for it could say two things (two locations, " +
      "two dates), and which one would be served is not what anyone reviewed.",
    source: 'contract 3.1; README, "Content"',
    fix: "Keep one of the entries; the message names the other.",
  },
  "routes/conflict": {
    severity: "error",
    summary: "a UMID has two fates: redirected and published, or listed in two lists",
    why:
      "A UMID is in exactly one condition (contract 3.1): served (200), redirected " +
      "(307) or revoked (410). Two would make the answer depend on the order of the " +
      "checks, not on what the publisher meant.",
    source: "contract 2.12, 3.1",
    fix: "Remove one of the two: the entry, or the manifest file the message names.",
  },
  "routes/undated": {
    severity: "warning",
    summary: "a revoked, suspended or reinstated entry has no date",
    why:
      "Its status document says when the status began (updatedAt, and the cursor " +
      "relying parties order statuses by): undated, it is served as beginning in 1970, " +
      "so a relying party cannot tell it from an older status.",
    source: 'EXT-OPT O2.2; README, "Content"',
    fix:
      "Add revokedAt, suspendedAt or reinstatedAt with the time the status began; " +
      "manifest-resolver revoke, suspend and reinstate write it.",
    example: '{ "umid": "urn:uuid:...", "revokedAt": "2026-10-15T08:30:00Z", "reason": "key rotated" }',
  },
  "routes/unpublished": {
    severity: "error",
    summary: "a suspended or reinstated UMID is not published by any manifest here",
    why:
      "Suspension is a status of a manifest served (EXT-OPT O2.3): there is nothing to " +
      "suspend or reinstate without one, and the entry would describe a UMID that " +
      "answers 404.",
    source: 'EXT-OPT O2.3; README, "Content"',
    fix: "Remove the entry, or publish the manifest, or revoke or redirect the UMID instead.",
  },
  "routes/withheld": {
    severity: "warning",
    summary: "a manifest is not published: its UMID is revoked in _routes.json",
    why:
      "A revoked UMID answers 410 even while a manifest file for it exists: the file " +
      "is checked but not served. A warning, so that nobody edits a manifest expecting " +
      "it to be published.",
    source: "contract 3.1; EXT-OPT O2.3",
    fix: "Nothing, if the UMID is meant to stay revoked (revocation is permanent); delete the file to silence this.",
  },
} satisfies Record<string, Rule>;
