/**
 * The v0.3 schema, the one earlier version the evaluator reads (EXT-T1 §T1.6.4). Its own
 * module, which the evaluator imports dynamically (evaluate/arrive.ts): a v0.4 manifest,
 * the common case, never loads its generated validator.
 */
import { legacyV03, legacyV03Descriptions } from "./generated/legacy-v0.3.js";
import type { LegacySchemas } from "./legacy.ts";
import { problemsOf } from "./schema-problems.ts";

export const V03_SCHEMAS: LegacySchemas = { "0.3": problemsOf(legacyV03, legacyV03Descriptions) };
