/**
 * A command's exit statuses, and the error that makes a usage error of a mistake in how it
 * was called: kept apart from the rest of command.ts, so that the CLI's overview and
 * dispatch load nothing more.
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called: exit status 2, with the message and a hint to `--help`. */
export class UsageError extends Error {}
