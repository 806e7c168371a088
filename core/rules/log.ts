/** Rules of the transparency log in `content/_log/` as `manifest-resolver log` extends it and `check` reads it. */
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
} satisfies Record<string, Rule>;
