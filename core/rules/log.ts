/**
 * Rules of the transparency log: in `content/_log/` as `manifest-resolver log` extends it and `check` and `build`
 * read it, as a resolver serves it and `manifest-resolver monitor` audits it, and as a relying party's client proves
 * its answers against it (`resolve --log-key` or `--log-policy`, core/client/latest-logged.ts; receipt codes
 * `um:reason:log:…`).
 */
import type { Rule } from "./rule.ts";

export const LOG_RULES = {
  "log/wrong-key": {
    severity: "error",
    summary: "the key given to manifest-resolver log is not the log's own",
    why:
      "Clients and monitors trust the log's checkpoints by its verifier key (content/_log/verifier): a " +
      "checkpoint signed with another key would not verify, and the log would be refused by all of them.",
    source: "C2SP signed-note, tlog-checkpoint",
    fix: "Run log with the key that made the log (the one whose public half the verifier file names).",
  },
  "log/unverifiable": {
    severity: "error",
    summary: "content/_log/ does not verify: its checkpoint, verifier, tiles and entries disagree",
    why:
      "A log is append-only: appending to one whose history no longer hashes to its signed checkpoint " +
      "(an edited entry, a missing tile, a checkpoint signed by another key) would sign the edit as history.",
    source: "C2SP tlog-tiles, tlog-checkpoint; RFC 9162 2.1",
    fix:
      "Restore content/_log/ from version control (git checkout -- content/_log) to the files the " +
      "checkpoint signed, then run log again.",
  },
  "log/stale": {
    severity: "error",
    summary: "the content serves a state that is not its UMID's latest entry in content/_log/",
    why:
      "Clients and monitors that read the log take a UMID's latest entry for what the resolver serves: " +
      "a body or state the log does not record would be refused by them, and would escape every monitor.",
    source: "C2SP tlog-tiles",
    fix: "Run manifest-resolver log --key <the log's key> after the change, and commit content/_log/ with it.",
  },
  "log/unserved": {
    severity: "error",
    summary: "content/_log/ records a UMID the content no longer serves",
    why:
      "A log has no entry for a UMID that is gone: its latest entry stays what clients and monitors take it to " +
      "serve, so a client with the log key would accept its last logged body from anyone who replays it, though " +
      "the resolver answers 404.",
    source: "Issue 26, sections 1 and 3",
    fix:
      "Revoke the UMID (manifest-resolver revoke) or redirect it instead of deleting its manifest, or publish it " +
      "again; then run manifest-resolver log.",
  },
  "log/revocation-undone": {
    severity: "error",
    summary: "a UMID the log records as revoked is served, or logged, in another state after its revocation",
    why:
      "Revocation is permanent (EXT-OPT O2.3): relying parties that saw a UMID revoked keep it revoked. A log entry " +
      "after a revocation would sign that it was undone, and a client with the log key would accept the revived " +
      "manifest; log refuses to append one, check and build refuse content that calls for one, monitor refuses a " +
      "log that holds one, and a client refuses one after a revocation it can see (one its memory saw the log " +
      "prove, or one earlier in the same entry bundle). A revocation dropped from _routes.json by a direct push, " +
      "which no check --base saw, is caught here.",
    source: "EXT-OPT O2.3; issue 37",
    fix:
      "Put the UMID back in the revoked list of content/_routes.json (manifest-resolver revoke UMID), and publish " +
      "the manifest under a new UMID. A log that already holds such an entry has signed it: investigate who " +
      "logged it, with what key.",
  },
  "log/entry-too-large": {
    severity: "error",
    summary: "a UMID's log entry is over the 65,535 bytes an entry bundle can hold",
    why:
      "C2SP tlog-tiles writes each entry of a bundle after a big-endian uint16 length: an entry longer than that " +
      "(a UMID of tens of kilobytes) cannot be logged, so the content would serve a state no log records.",
    source: "C2SP tlog-tiles (entry bundles)",
    fix: "Use a shorter UMID: no entry of it can be logged.",
  },
  "log/bad-checkpoint": {
    severity: "error",
    summary:
      "the served checkpoint is missing, or does not verify with the log's verifier key, or a witness's " +
      "cosignature on it does not verify",
    why:
      "A checkpoint is the log's signed word on its size and root: one that is not there, or not signed by the " +
      "log's key for its origin, vouches for nothing, and clients that verify the log refuse what it serves.",
    source: "C2SP tlog-checkpoint, signed-note",
    fix:
      "Deploy a build of content whose content/_log/ verifies (manifest-resolver check), and give monitor the " +
      "log's own verifier key (content/_log/verifier).",
  },
  "log/tile-mismatch": {
    severity: "error",
    summary:
      "a served tile or entry bundle is missing, longer than its width allows, holds an entry no log writes, or " +
      "does not hash to the checkpoint's root",
    why:
      "The checkpoint signs a root; the tiles and entry bundles are the history under it. A served file that " +
      "does not hash to that root shows another history than the one signed, and hides what was logged. A bundle " +
      "longer than its width allows, or not the entries its tile hashes, is refused as it arrives: a host that " +
      "inflates bundles must not make a monitor download and keep them all.",
    source: "C2SP tlog-tiles; RFC 9162 2.1",
    fix:
      "Deploy a build of content whose content/_log/ verifies, with every tile and bundle of its checkpoint " +
      "(the build publishes them); a host or cache serving other files must be fixed.",
  },
  "log/map-mismatch": {
    severity: "error",
    summary: "the served latest map (checkpoint line or bucket file) is not the map the entries make",
    why:
      "Clients take a UMID's latest entry from its bucket file, proven against the checkpoint's latest line. " +
      "A line or bucket that is not the entries' map makes clients refuse a current state, or accept a stale one: " +
      "the map is auditable only by recomputing it, which is what a monitor does.",
    source: "C2SP tlog-checkpoint (extension lines); issue 26, the latest map",
    fix: "Deploy a build made with the current manifest-resolver: it derives the buckets from the log's entries.",
  },
  "log/inconsistent": {
    severity: "error",
    summary: "the served log is not consistent with the checkpoint saved before: it shrank or was rewritten",
    why:
      "A log only grows: its tree at any size is a prefix of every later one. A smaller tree, or one of which the " +
      "saved tree is not a prefix, shows another history to this monitor, or to this client (resolve --log-key " +
      "with a cache), than before: an old snapshot replayed, a split view or a rewritten log, the attack the log " +
      "exists to make visible. So does a checkpoint of the saved tree with another signed body (another latest " +
      "map): the key signed two views of one tree. A client refuses the answer it came with.",
    source: "C2SP tlog-tiles; RFC 9162 2.1.4 (consistency)",
    fix:
      "Investigate: find which history the log's key signed and who was served which. A publisher whose " +
      "content/_log/ was rebuilt or rolled back must restore its history; the saved checkpoint (monitor's, or in " +
      "resolve's --http-cache) is evidence, keep it.",
  },
  "log/not-latest": {
    severity: "error",
    summary: "what the resolver answered for a UMID is not its latest entry in the resolver's log",
    why:
      "A body the log does not record as the UMID's latest state (an older body, validly signed, replayed by a " +
      "cache or a party on the path; a revocation or suspension rolled back; a UMID never logged) may be " +
      "one the publisher has since replaced or withdrawn: its signature alone cannot tell.",
    source: "C2SP tlog-tiles; issue 26",
    fix:
      "Nothing to use: ask again later, or by another path. If it is your resolver, run manifest-resolver log " +
      "after every change and deploy content/_log/ with the build that serves it.",
  },
  "log/unproven": {
    severity: "error",
    summary: "the resolver's log could not prove a UMID's latest entry",
    why:
      "With a log key, the client takes an answer only once the log proves it: a checkpoint that verifies with " +
      "the key, a bucket of its latest map, and the entry's inclusion in the checkpoint's tree. A file that " +
      "is missing, unreadable or does not prove leaves the answer unproven, and refused; so does, under a log " +
      "policy, a checkpoint no log of the policy signed, or a witness's cosignature that does not verify.",
    source: "C2SP tlog-tiles, tlog-checkpoint, signed-note",
    fix:
      "Check the key (the resolver's content/_log/verifier, or the policy's log line) and that the resolver " +
      "serves its log at " +
      "/.well-known/manifest-resolver/log/; if it is your resolver, build after running log.",
  },
  "log/unwitnessed": {
    severity: "error",
    summary: "the log's checkpoint lacks the cosignatures of the witnesses its policy's quorum requires",
    why:
      "A log's key can sign one view for a relying party and another for everyone else (a split view), and each " +
      "verifies. Witnesses cosign a checkpoint only once it is consistent with every one they cosigned before, so " +
      "a checkpoint that a quorum of independent witnesses cosigned is the one view they all saw. Without that " +
      "quorum, nothing but the log's word says the view is the one others are shown.",
    source: "C2SP tlog-witness, tlog-cosignature, tlog-policy; issue 41",
    fix:
      "If it is your log, run manifest-resolver log: it asks the witnesses of content/_log/policy to cosign, and " +
      "says which refused and why. As a relying party, refuse the answer and ask again later.",
  },
  "log/bad-policy": {
    severity: "error",
    summary: "content/_log/policy is not a log policy this log can be witnessed under",
    why:
      "The policy names the witnesses that must cosign the log's checkpoints, and how many of them (C2SP " +
      "tlog-policy): log asks them, and check and build refuse a checkpoint without that quorum. A policy that " +
      "does not parse, or names another log than this one, would leave the publisher unsure which witnesses stand " +
      "behind what is served; clients handed the same file as their policy would refuse every answer.",
    source: "C2SP tlog-policy; issue 41",
    fix:
      "Fix the line named: one `witness <name> <cosigner key> <submission URL>` line per witness, optional " +
      "`group` lines, one `quorum` line, and at most one `log` line, which must be content/_log/verifier's key.",
  },
  "log/stale-cosignature": {
    severity: "error",
    summary: "the log's checkpoint is cosigned, but too long ago to count toward the quorum",
    why:
      "A cosignature states the largest view of the log a witness saw at its time. An old one may describe a view " +
      "since replaced: a party that replays an old, validly witnessed checkpoint to one client freezes that client's " +
      "view. A bound on the cosignature's age bounds how old a view can be passed off as the current one.",
    source: "C2SP tlog-cosignature (timestamp), tlog-proof (use of timestamps); issue 41",
    fix:
      "If it is your log, run manifest-resolver log to have its checkpoint cosigned again, and deploy. As a " +
      "relying party, refuse the answer, or allow older cosignatures (resolve --max-cosignature-age) if you accept " +
      "an older view.",
  },
  "log/rewritten": {
    severity: "error",
    summary: "content/_log/ is not an append-only extension of the log at the base revision (check --base)",
    why:
      "Clients and monitors hold the checkpoints the log signed before: one whose tree does not extend theirs (a " +
      "log rewritten from scratch, truncated, removed or re-keyed) proves to them that the log rewrote its history, " +
      "and they refuse it. A log must never sign a checkpoint inconsistent with one it signed.",
    source: 'Issue 26, section 3; C2SP tlog-checkpoint ("A log MUST not sign any checkpoint which is inconsistent")',
    fix:
      "Restore content/_log/ from the base revision (git checkout REV -- content/_log), then run " +
      "manifest-resolver log --key <the log's key> again: it appends the change to the log as it was.",
  },
} satisfies Record<string, Rule>;
