/** What reads `--file FILE` and its deprecated spelling `--out FILE` (shared-options.ts declares both). */
import { UsageError } from "../cli/command.ts";

/** The file `--file` (or the deprecated `--out`, with a warning) names for `command`; undefined for neither. */
export function chosenFile(
  command: string,
  values: { file: string | undefined; out: string | undefined },
): string | undefined {
  if (values.out !== undefined && values.file !== undefined) throw new UsageError("give --file FILE alone");
  if (values.out !== undefined)
    console.error(`manifest-resolver: ${command} --out FILE is deprecated, and goes in 0.2: use --file FILE`);
  return values.file ?? values.out;
}
