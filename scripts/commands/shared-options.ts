/**
 * The declarations of the options several commands share, apart from what reads them (scripts/pipeline/run-cache.ts,
 * keys-option.ts, receipt-key-option.ts, sarif-option.ts): a command's declaration, all that its --help
 * loads, imports these and nothing of what the options do.
 */
import { booleanOption, durationOption, integerOption, stringOption } from "../cli/options.ts";
import { join } from "node:path";
import { defaultContentDir, projectRoot } from "../read/content-root.ts";

/** `--out DIR`, the built output, shared by `build` and `dev`. */
export const OUT_OPTION = {
  out: stringOption({
    value: "DIR",
    help: "output directory",
    default: { text: "the repository's dist/", value: () => join(projectRoot(), "dist") },
  }),
};

/** A TCP port's declaration, shared by `serve` and `dev`: 0 asks for any free one. */
export const PORT = { value: "N", min: 0, max: 65535 };

/** `--content DIR`, shared by the commands that read or edit a content folder. */
export const CONTENT_OPTION = {
  content: stringOption({
    value: "DIR",
    help: "content directory",
    default: { text: "the repository's content/", value: defaultContentDir },
  }),
};

/** Problems printed unless `--max-problems` says otherwise. */
export const DEFAULT_MAX_PROBLEMS = 50;

/**
 * `--max-problems N`, shared by `check` and `build`: how many problems are printed before
 * "… and N more" (eslint's --max-warnings caps a verdict; this caps only the output: the
 * verdict and the counts by rule always cover every problem).
 */
export const MAX_PROBLEMS_OPTION = {
  "max-problems": integerOption({
    value: "N",
    min: 0,
    max: 999_999_999,
    expects: "a whole number (0: no cap)",
    default: DEFAULT_MAX_PROBLEMS,
    help:
      "print the first N problems (0: all), then how many more there are; the counts " +
      "by rule and the exit status cover them all",
  }),
};

export const CACHE_OPTION = {
  "no-verification-cache": booleanOption({
    help:
      "check every file again, and neither read nor write the verification cache " +
      "(UM_CACHE_DIR, default node_modules/.cache/manifest-resolver/ of the package)",
  }),
  "no-cache": booleanOption({ help: "deprecated spelling of --no-verification-cache; goes in 0.2", deprecated: true }),
};

/**
 * `--offline` (`help`: what the command then fetches not; `fetched`: what it fetches by default), and `--online`, which
 * asked until 0.1 for what is now the default, kept for one minor version with a warning.
 */
export function offlineOptions(help: string, fetched: string) {
  return {
    offline: booleanOption({ help, default: { text: fetched } }),
    online: booleanOption({
      help: "deprecated: asks for what is the default now (--offline turns it off); goes in 0.2",
      deprecated: true,
    }),
  };
}

/**
 * `--http-cache DIR`, where a relying party's commands keep the responses they fetched, and `--cache DIR`, its
 * spelling until 0.1 (which left it unsaid which cache it was), kept for one minor version with a warning.
 */
export function httpCacheOptions(help: string, fallback: { text: string }) {
  return {
    "http-cache": stringOption({ value: "DIR", help, default: fallback }),
    cache: stringOption({
      value: "DIR",
      help: "deprecated spelling of --http-cache; goes in 0.2",
      default: { text: "none" },
      deprecated: true,
    }),
  };
}

export const CACHE_ENVIRONMENT = `  UM_CACHE_DIR           the verification cache's folder (default: the repository's
                         node_modules/.cache/manifest-resolver/, where it has a package.json)`;

export const SARIF_OPTION = {
  sarif: stringOption({
    value: "FILE",
    help:
      "also write the problems to FILE as a SARIF 2.1.0 log, whatever the outcome, for " +
      "GitHub code scanning (github/codeql-action/upload-sarif)",
  }),
};

export const KEYS_OPTION = {
  keys: stringOption({
    value: "FILE",
    help:
      'pin signing keys, in the format of _keys.json: {"KEYREF": "SPKI", ...}, each an ' +
      "Ed25519 SubjectPublicKeyInfo in standard base64. A manifest whose keyRef is not " +
      "pinned there (rule signature/unpinned-key), or that embeds another key " +
      "(signature/key-mismatch), is rejected; one signed with its pinned key has " +
      'keyRefResolution "resolved". A FILE that cannot be used is a usage error.',
    default: {
      text:
        "a did:key or did:jwk keyRef is resolved to its key, which an embedded key must equal " +
        "(signature/keyref-mismatch); for any other keyRef the embedded key is used, and " +
        'keyRefResolution is "unresolved"',
    },
  }),
};

export const RECEIPT_KEY_OPTIONS = {
  "receipt-key": stringOption({
    value: "PEM",
    help:
      "print the receipt signed, as a receipt manifest (EXT-OPT O3) that 'manifest-resolver " +
      'evaluate\' verifies: @type ["um:Manifest", "um:Receipt"], subject the evaluator ' +
      "(KEYREF before its #), issuedAt its processedAt, expiresAt 24 hours later, an @id " +
      "derived from its content, and a Profile A signature with this Ed25519 private key " +
      "(PKCS#8 PEM, as keygen writes it). Needs --receipt-key-ref.",
    default: { text: "the receipt, unsigned" },
  }),
  "receipt-key-ref": stringOption({
    value: "KEYREF",
    help: "the signed receipt's keyRef, e.g. did:web:you.example#key-1 (needs --receipt-key)",
    nonEmpty: true,
  }),
};

/**
 * `--file FILE`, where a command writes the one file it makes, and `--out FILE`, its spelling until 0.1 (`--out`
 * names a folder in every other command), kept for one minor version with a warning.
 */
export function fileOptions(help: string, fileDefault: { text: string }) {
  return {
    file: stringOption({ value: "FILE", help, default: fileDefault }),
    out: stringOption({
      value: "FILE",
      help: "deprecated spelling of --file (--out names a folder in every other command); goes in 0.2",
      default: { text: "none" },
      deprecated: true,
    }),
  };
}

/**
 * `--log-policy FILE` and `--max-cosignature-age DURATION`, shared by `resolve` and `monitor` (read by
 * log-policy-option.ts): the log's checkpoint must be cosigned by the policy's quorum of witnesses, freshly.
 */
export const LOG_POLICY_OPTIONS = {
  "log-policy": stringOption({
    value: "FILE",
    help:
      "a log policy (C2SP tlog-policy: log, witness, group and quorum lines): the log must be one of its logs, " +
      "and its checkpoint cosigned by its quorum of witnesses (rule log/unwitnessed names those missing); " +
      "instead of --log-key",
    default: { text: "--log-key's log, with no witness" },
  }),
  "max-cosignature-age": durationOption({
    value: "DURATION",
    max: 10 * 366 * 86_400,
    help:
      "with --log-policy, how old a witness's cosignature may be and still count (90s, 15m, 12h, 30d; a bare " +
      "number is seconds): a quorum only of older ones is refused (rule log/stale-cosignature)",
    default: { text: "30d" },
  }),
};
