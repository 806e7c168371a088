/**
 * `--keys FILE` of `resolve` and `evaluate`: the relying party's pinned keys, in the
 * format of `_keys.json` (keyRef to Ed25519 SPKI, standard base64), read and checked as
 * `check` reads a content root's (scripts/check/keys.ts: strict JSON, the schema,
 * keys/not-ed25519, keys/weak-key), for the evaluator's `keys`. A file that is absent or
 * has any problem is a usage error naming it: whoever meant to pin keys must not end up
 * trusting whatever key a manifest embeds.
 */
import { checkKeys } from "../check/keys.ts";
import { displayPath } from "../read/display-path.ts";
import type { Settings } from "../config.ts";
import { diagnostic, plural } from "../report/diagnostics.ts";
import { formatDiagnostic } from "../report/text.ts";
import { schemaValidators } from "../validate/schema-validator.ts";
import { UsageError } from "../cli/command.ts";

/**
 * The keys pinned in `file` by keyRef, or none when no file is given; throws UsageError for a file that cannot be
 * used.
 */
export function keysOption(file: string | undefined, settings: Settings): Record<string, string> | undefined {
  if (file === undefined) return undefined;
  const checked = checkKeys(file, schemaValidators(settings.contextUrl, settings.resolverUrl));
  // No pins at all: checkKeys finds no file, which for a content root means none is pinned.
  const [first, ...more] =
    checked.pins === undefined
      ? [diagnostic("file/unreadable", { file: displayPath(file) }, "file not found")]
      : checked.diagnostics;
  if (first !== undefined)
    throw new UsageError(
      `--keys: ${formatDiagnostic(first)}${more.length === 0 ? "" : ` (and ${plural(more.length, "more problem")})`}`,
    );
  return Object.fromEntries([...checked.pins!.keys].map(([keyRef, { spki }]) => [keyRef, spki]));
}
