/**
 * `manifest-resolver check`: the build's validation, without writing anything; with
 * `--base`, also what the change does to what the resolver already answered, which a pull
 * request must not rewrite (revocation is permanent: EXT-OPT O2.3).
 * The declaration: all that --help and a usage error need; the run is check.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { CONTENT_OPTION, CACHE_OPTION, SARIF_OPTION, MAX_PROBLEMS_OPTION, offlineOptions } from "./shared-options.ts";
import { booleanOption, listOption, stringOption } from "../cli/options.ts";

export const check = declareCommand({
  name: "check",
  description: `Validates what 'manifest-resolver build' validates and writes nothing. A PATH is a
content directory (its manifests, _keys.json, _unsigned.json, _routes.json and the rules
across them) or a file or folder in one, judged as the build judges it, by the content
folder's _keys.json and _unsigned.json. With no PATH, the repository's content folder.

Problems are printed on stdout as 'file:line:col - error RULE: message at /json/pointer',
by file and place, with a hint where one command fixes them, then their counts by rule
and a summary; on a terminal, each with its source line, in colour (NO_COLOR, FORCE_COLOR
as usual), and a progress line on stderr past two seconds. Under GitHub Actions
(GITHUB_ACTIONS=true), the first 10 errors and 10 warnings also as annotations (all that
GitHub shows), then a notice of how many more, by rule.`,
  epilogue: `Environment: as for 'manifest-resolver build --help'.

Exit status: 0 no errors, 1 errors found, 2 usage error.

Examples:
  manifest-resolver check content/people/alice/profile.jsonld --now 2027-01-01T00:00:00Z
  manifest-resolver check --base origin/main --summary summary.md`,
  positionals: [{ name: "PATH", repeatable: true }],
  options: {
    json: booleanOption({
      help:
        "one JSON object per checked file per line, and nothing else: " +
        '{"file","umid","ok","errors":[{"rule","message","pointer","line","column"}],"warnings":[...]}',
    }),
    now: stringOption({
      value: "DATE-TIME",
      help: "the clock for expiry warnings (RFC 3339), for reproducible runs",
    }),
    strict: booleanOption({
      help:
        "an expired or not yet issued manifest is an error, not a warning, and so are " +
        "manifests checked with no _keys.json to pin their keys",
    }),
    content: { ...CONTENT_OPTION.content, help: "the content folder FILEs belong to" },
    "allow-unsigned": listOption({
      value: "FILE",
      help:
        "check FILE, a payload whose version defines no verifiable signature (v0.1), as " +
        "if opted in: for files outside a content folder only (in one, _unsigned.json " +
        "alone opts in, as for the build); repeatable",
    }),
    base: stringOption({
      value: "REV",
      help:
        "also compare the content folder on disk with the one committed at REV, a git " +
        "revision (in CI, the pull request's base): a UMID revoked there and not here is " +
        "an error (history/unrevoked: revocation is permanent), and so is one published " +
        "or redirected there that is now neither published, redirected nor revoked " +
        "(history/vanished: it would answer 404), and so is a status change dated no " +
        "later than the status it ends (history/cursor-regressed: clients would refuse " +
        "it as a rollback), and a revokedAt moved, or a suspendedAt or reinstatedAt " +
        "moved earlier (history/revocation-redated, suspension-redated, " +
        "reinstatement-redated: when a status began is history), and so is a transparency " +
        "log (content/_log/) that is not REV's log appended to: removed, truncated, " +
        "rewritten or re-keyed (log/rewritten), and so is a status list entry of " +
        "content/_status/ that REV allocated and is now freed, moved or given to another " +
        "UMID (history/status-entry-freed, -moved, -unrevoked), and a content/_keys.json " +
        "removed, or a pin dropped that REV's manifests were signed under " +
        "(history/keys-removed, pin-removed); a keyRef pinned to another key or pinned anew is a " +
        "warning (history/pin-changed, pin-added), and so is a file opted in anew by " +
        "content/_unsigned.json (history/unsigned-opt-in), and a change to the peers of " +
        "content/_resolvers.json (history/peers-changed); the whole content folder, so no PATH",
    }),
    summary: stringOption({
      value: "FILE",
      help:
        "write FILE, a Markdown table of what the change does to the resolver (UMIDs " +
        "published, changed, revoked, suspended, reinstated, redirected, and whose " +
        "status reason changed, each reason old and new), a signing key pinned anew " +
        "first, even when the check fails; " +
        "without --base, against nothing: all is new",
    }),
    ...offlineOptions(
      "fetch no DID document: the pins alone are checked",
      "the DID document of each did:web keyRef _keys.json pins (but those of the resolver's host, which the build " +
        "publishes) is fetched as a relying party resolves it: one that does not list the pinned key under " +
        "assertionMethod is an error (keys/did-web-mismatch), one that cannot be fetched a warning " +
        "(keys/did-web-unreachable)",
    ),
    ...MAX_PROBLEMS_OPTION,
    ...CACHE_OPTION,
    ...SARIF_OPTION,
  },
});
