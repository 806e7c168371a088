/**
 * The pipeline's one entry point: what the commands that check content and build outputs
 * call. Behind it, the stages run read → check → plan → write (scripts/read/, check/, plan/,
 * write/), with what a run keeps (cache/, store/) and the transparency log (log/); a command
 * parses its options, calls in here, and reports what comes back.
 *
 * What only some runs need is loaded when asked for: the stages after the check (plan,
 * write: outputStages) and the comparison with an earlier revision (historyJudgements).
 * Code splitting (tools/build-cli.ts) gives a command every module its code reaches by
 * static imports, used or not, so a re-export here made `check` load the whole build.
 */
export type { Built } from "./output-stages.ts";
export { openCache, saveCache } from "./run-cache.ts";
export {
  checkContent,
  checkPaths,
  type ContentCheck,
  isListFile,
  missingContentProblem,
} from "../check/check-content.ts";
export { earlyOnlineKeys } from "../check/online-keys.ts";
export { addLogProblems } from "./content-judgements.ts";
export { openContentLog } from "../log/log-folder.ts";
export { logStates } from "../log/state-store.ts";

/** The stages after the check: the output planned and written, and a killed build's output put right. */
export const outputStages = () => import("./output-stages.ts");

/** What `check --base` and `--summary` judge against an earlier revision. */
export const historyJudgements = () => import("./history-judgements.ts");
