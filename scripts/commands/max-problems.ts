/**
 * `--max-problems N`, shared by `check` and `build`: how many problems are printed before
 * "… and N more" (eslint's --max-warnings caps a verdict; this caps only the output: the
 * verdict and the counts by rule always cover every problem).
 */
import { DEFAULT_MAX_PROBLEMS } from "../report/problem-report.ts";
import { integerOption } from "./options.ts";

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
