/**
 * The pipeline after the check, which only a command that writes an output runs: the build
 * (plan, then write), the bodies it keeps, the log's files it serves, and an output a
 * killed build left put right. Loaded through index.ts's outputStages.
 */
export { buildOutput, type Built } from "./build-output.ts";
export { keepBodies } from "./kept-bodies.ts";
export { logRoutes } from "../log/log-output.ts";
export { OutputError, recoverOutput, writeOutput } from "../write/output.ts";
