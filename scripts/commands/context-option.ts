/**
 * The declaration of `--context JSON` and the options that set its members, shared by `evaluate` and `resolve`; what
 * reads them is evaluate.ts's contextOption. Apart from shared-options.ts: it reads the settings (their limits),
 * which no other command's --help needs.
 */
import { jsonOption, listOption, stringOption } from "../cli/options.ts";
import { settingsFromEnv } from "../config.ts";

/**
 * `--context JSON`, shared with `resolve`: user input, read as strictly as a manifest and within the same limits;
 * and `--purpose`, `--facet`, which set two of its members as `--now` sets another.
 */
export const CONTEXT_OPTION = {
  context: jsonOption({
    value: "JSON",
    help:
      "the evaluation context, a JSON object with any of: now, maxSupportedTrustTier, " +
      "verifierChallenge, verifierAudience, presentedAssuranceClass, intendedScope, " +
      "intendedPurpose, facets, requireActiveStatus, omitProcessedAt (what a member " +
      "does, and its fail-closed default: docs/library.md).",
    default: { text: "{}, the wall clock, Tier 0, no challenge" },
    // The limits are the environment's alone: --help need not read the settings file.
    limits: () => settingsFromEnv().limits,
  }),
  purpose: stringOption({
    value: "PURPOSE",
    nonEmpty: true,
    help:
      'the intended use, overriding the context\'s "intendedPurpose": a consent holds only ' +
      "for its own purpose (core §3.1.4)",
    default: { text: "none; a consent's purpose is then unverified, with a warning" },
  }),
  facet: listOption({
    value: "FACET",
    help:
      'a facet to process, by name or @id, overriding the context\'s "facets"; repeat it for ' +
      'more. The others are "not-projected" (core §3.1.3). Default: every facet',
  }),
};
