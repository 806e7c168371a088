/**
 * The rule registry: every rule a diagnostic can name, with its default severity and its
 * page (what `manifest-resolver explain RULE` prints, docs/rules.md, a SARIF log's rules).
 * A rule's id is a type, RuleId, so a diagnostic of a rule that is not here does not
 * compile. Code that runs in a browser (core/evaluate, core/client) imports the type
 * only, so none of the prose is bundled with it.
 */
import { CONFIG_RULES } from "./config.ts";
import { CONTENT_RULES } from "./content.ts";
import { HISTORY_RULES } from "./history.ts";
import { JSON_RULES } from "./json.ts";
import { LOG_RULES } from "./log.ts";
import { MANIFEST_RULES } from "./manifest.ts";
import { RELYING_PARTY_RULES } from "./relying-party.ts";
import { ROUTES_RULES } from "./routes.ts";
import type { Rule } from "./rule.ts";
import { SCHEMA_RULES } from "./schema.ts";
import { SIGNATURE_RULES } from "./signature.ts";
import { STATUS_LIST_RULES } from "./status-list.ts";

export { SEVERITIES, type Rule, type Severity } from "./rule.ts";

export const RULES = {
  ...JSON_RULES,
  ...SCHEMA_RULES,
  ...MANIFEST_RULES,
  ...SIGNATURE_RULES,
  ...CONTENT_RULES,
  ...CONFIG_RULES,
  ...ROUTES_RULES,
  ...HISTORY_RULES,
  ...LOG_RULES,
  ...STATUS_LIST_RULES,
  ...RELYING_PARTY_RULES,
} satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];

export function isRuleId(id: unknown): id is RuleId {
  return typeof id === "string" && Object.hasOwn(RULES, id);
}

/**
 * The anchor of a rule's section in docs/rules.md: the one GitHub derives from its heading,
 * the id itself (lower case, without the characters a slug drops: `/`, `:`).
 */
export function ruleAnchor(id: RuleId): string {
  return id
    .toLowerCase()
    .replace(/[^a-z0-9_ -]/g, "")
    .replaceAll(" ", "-");
}
