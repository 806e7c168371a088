/**
 * The pipeline's one entry point: what the commands that check content and build outputs
 * call. Behind it, the stages run read → check → plan → write (scripts/read/, check/, plan/,
 * write/), with what a run keeps (cache/, store/) and the transparency log (log/); a command
 * parses its options, calls in here, and reports what comes back.
 */
export { buildOutput, type Built } from "./build-output.ts";
export { keepBodies } from "./kept-bodies.ts";
export { openCache, saveCache } from "./run-cache.ts";
export {
  checkContent,
  checkPaths,
  type ContentCheck,
  isListFile,
  missingContentProblem,
} from "../check/check-content.ts";
export { onlineKeyProblems } from "../check/online-keys.ts";
export { addHistoryProblems, addLogProblems } from "./content-judgements.ts";
export { resolveRevision, RevisionError } from "../history/git-revision.ts";
export { openContentLog } from "../log/log-folder.ts";
export { logRoutes } from "../log/log-output.ts";
export { logStates } from "../log/state-store.ts";
export { OutputError, recoverOutput, writeOutput } from "../write/output.ts";
