/**
 * `--max-problems N`, shared by `check` and `build`: how many problems are printed before
 * "… and N more" (eslint's --max-warnings caps a verdict; this caps only the output: the
 * verdict and the counts by rule always cover every problem).
 */
import { DEFAULT_MAX_PROBLEMS } from "../report/problem-report.ts";
import { UsageError, type OptionValues } from "./command.ts";

export const MAX_PROBLEMS_OPTION = { "max-problems": { type: "string" } } as const;

export const MAX_PROBLEMS_HELP = `  --max-problems N  print the first N problems (default: ${DEFAULT_MAX_PROBLEMS}; 0: all), then how many more
                    there are; the counts by rule and the exit status cover them all`;

export function maxProblems(values: OptionValues): number {
  const text = values["max-problems"];
  if (text === undefined) return DEFAULT_MAX_PROBLEMS;
  if (typeof text !== "string" || !/^\d{1,9}$/.test(text))
    throw new UsageError(`--max-problems must be a whole number (0: no cap), not '${String(text)}'`);
  return Number(text);
}
