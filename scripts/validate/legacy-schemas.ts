/**
 * Every earlier version the build reads (spec 4.3: "the stored payload may carry an older
 * `manifestVersion`"), each by its published schema compiled ahead of time. The evaluator
 * reads only v0.3 (core/validate/legacy-v03.ts) and so does not carry these.
 */
import { legacyV01, legacyV01Descriptions } from "../../core/validate/generated/legacy-v0.1.js";
import { legacyV02, legacyV02Descriptions } from "../../core/validate/generated/legacy-v0.2.js";
import { legacyCheck, type LegacyChecks } from "../../core/validate/legacy.ts";
import { V03_CHECKS } from "../../core/validate/legacy-v03.ts";
import { problemsOf } from "../../core/validate/schema-problems.ts";

export const PUBLISHED_LEGACY_CHECKS: LegacyChecks = {
  ...V03_CHECKS,
  "0.1": legacyCheck("0.1", problemsOf(legacyV01, legacyV01Descriptions)),
  "0.2": legacyCheck("0.2", problemsOf(legacyV02, legacyV02Descriptions)),
};
