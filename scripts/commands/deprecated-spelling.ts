/**
 * Options renamed in 0.1.x so that one setting has one spelling (`--file` for a file, `--out` for a folder; which cache
 * `--http-cache` and `--no-verification-cache` are; `--offline` wherever a command can fetch). The old spelling is
 * kept for one minor version with a warning; CHANGELOG.md lists them, and shared-options.ts declares both.
 */
import { UsageError } from "../cli/command.ts";

/**
 * The value of `--current`, or of its deprecated spelling `--old` (with a warning on stderr); both given: refused. A
 * flag not given reads false, as absent.
 */
function spelledNow<V>(
  command: string,
  values: Readonly<Record<string, V | undefined>>,
  current: string,
  old: string,
): V | undefined {
  const [now, before] = [values[current], values[old]].map((value) => (value === false ? undefined : value));
  if (before === undefined) return now;
  if (now !== undefined) throw new UsageError(`give --${current} alone: --${old} is its deprecated spelling`);
  console.error(`manifest-resolver: ${command} --${old} is deprecated, and goes in 0.2: use --${current}`);
  return before;
}

/** The file `--file` (or the deprecated `--out`) names for `command`; undefined for neither. */
export function chosenFile(
  command: string,
  values: { file: string | undefined; out: string | undefined },
): string | undefined {
  return spelledNow(command, values, "file", "out");
}

/** Whether `--no-verification-cache` (or the deprecated `--no-cache`) was given to `command`. */
export function verificationCacheOff(
  command: string,
  values: { "no-verification-cache": boolean | undefined; "no-cache": boolean | undefined },
): boolean {
  return spelledNow(command, values, "no-verification-cache", "no-cache") === true;
}

/** The folder `--http-cache` (or the deprecated `--cache`) names for `command`; undefined for neither. */
export function httpCacheDir(
  command: string,
  values: { "http-cache": string | undefined; cache: string | undefined },
): string | undefined {
  return spelledNow(command, values, "http-cache", "cache");
}

/**
 * Whether `command` is to fetch nothing: `--offline`. `--online`, which asked for what is now the default, is taken
 * with a warning; both together are refused.
 */
export function offlineChosen(command: string, values: { offline: boolean; online: boolean }): boolean {
  if (!values.online) return values.offline;
  if (values.offline) throw new UsageError("give --offline alone: --online is the default, and deprecated");
  console.error(
    `manifest-resolver: ${command} --online is deprecated, and goes in 0.2: ${command} fetches by default ` +
      "now, and --offline turns it off",
  );
  return false;
}
