/**
 * The check of v0.3, the one earlier version the evaluator reads (EXT-T1 §T1.6.4). Its own
 * module, which the evaluator imports dynamically (evaluate/arrive.ts), and bundled apart
 * (scripts/lookup-page-files/bundled-apart.ts): a v0.4 manifest, the common case, never
 * loads its generated validator.
 */
import { legacyV03, legacyV03Descriptions } from "./generated/legacy-v0.3.js";
import { legacyCheck, type LegacyChecks } from "./legacy.ts";
import { problemsOf } from "./schema-problems.ts";

export const V03_CHECKS: LegacyChecks = { "0.3": legacyCheck("0.3", problemsOf(legacyV03, legacyV03Descriptions)) };
