/**
 * `manifest-resolver build`: validate the content directory and write the output directory.
 * The declaration: all that --help and a usage error need; the run is build.ts.
 */
import { declareCommand } from "../cli/command.ts";
import {
  CONTENT_OPTION,
  OUT_OPTION,
  CACHE_OPTION,
  SARIF_OPTION,
  MAX_PROBLEMS_OPTION,
  CACHE_ENVIRONMENT,
} from "./shared-options.ts";
import { join } from "node:path";
import { CLOUDFLARE_FREE_FILES } from "../plan/host-limits.ts";
import { projectRoot } from "../read/content-root.ts";
import { grouped } from "../report/human-units.ts";
import { booleanOption, stringOption } from "../cli/options.ts";

export const build = declareCommand({
  name: "build",
  description: `Validates the content directory as 'manifest-resolver check' does (its transparency
log, content/_log/, if any, included: it must verify and record what the build serves),
then writes one body file per manifest and the record index to the output directory. Nothing is written if
anything fails: the previous output directory is left as it was. Manifests that have
expired, or are not yet issued, are warnings here. The lookup page, a static page for
people to look UMIDs up in a browser, is written to its own folder: it must be hosted on
another origin than the resolver. When the output would hold over ${grouped(CLOUDFLARE_FREE_FILES)} files
(Cloudflare's free-plan limit: a body per manifest, up to 4,096 index shards), or with
--kv-out, it also writes Workers KV bulk-upload files, for a Worker that reads its records
from KV: load each with 'wrangler kv bulk put FILE --binding UM_RECORDS --remote'. It
warns, on stderr, when the output nears or passes a host's limit (docs/hosts.md).
Problems are printed on stdout as 'manifest-resolver check' prints them.`,
  epilogue: `Environment:
  UM_STANDARDS_URL       site whose /ns/v0.4 context manifests must use
                         (default: https://universalmanifest.net)
  UM_MAX_MANIFEST_BYTES  largest manifest file (default: 1048576)
  UM_MAX_DEPTH           deepest nesting of objects and arrays (default: 10)
  UM_MAX_ARRAY_ITEMS     longest array (default: 1000)
  UM_RESOLVER_URL        the resolver the lookup page asks by default (default: none,
                         and a warning: the page asks its reader for one); the
                         did:web documents of keys pinned on its host are published
  UM_STATUS_LIST_KEY     the Ed25519 private key (PEM text, or a PEM file's path) that
                         signs the status lists (eddsa-jcs-2022, by its did:key);
                         unset: <keysDir>/status-list.pem if there is one, else they
                         are published without a proof, and a warning; it must be the
                         project's statusListKey when manifest-resolver.json names one
  UM_LOCK_WAIT_MS        how long to wait for another build of the same output, or
                         another edit of the same file (default: 10000)
${CACHE_ENVIRONMENT}

Exit status: 0 built, 1 invalid content or write failure, 2 usage error.

Example:
  manifest-resolver build --content content --out dist`,
  positionals: [],
  options: {
    ...CONTENT_OPTION,
    ...OUT_OPTION,
    "lookup-out": stringOption({
      value: "DIR",
      help: "lookup page directory",
      default: { text: "the repository's dist-lookup/", value: () => join(projectRoot(), "dist-lookup") },
    }),
    "kv-out": stringOption({
      value: "DIR",
      help: "Workers KV bulk files directory",
      default: { text: "the repository's dist-kv/, when written" },
    }),
    "allow-empty": booleanOption({
      help:
        "publish even when no manifest would be (by default such a build is refused: it " +
        "would answer 404 for every UMID)",
    }),
    ...MAX_PROBLEMS_OPTION,
    ...CACHE_OPTION,
    ...SARIF_OPTION,
  },
});
