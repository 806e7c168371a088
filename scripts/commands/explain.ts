/**
 * `manifest-resolver explain [RULE]`: a rule's page from the registry (core/rules/), as
 * `rustc --explain` prints an error code's; with no RULE, every rule and its summary.
 */
import { isRuleId, RULE_IDS, RULES, ruleAnchor, type Rule, type RuleId } from "../../core/rules/index.ts";
import { toolPackage } from "../runtime/tool-files.ts";
import { EXIT_OK, UsageError } from "../cli/command.ts";
import type { explain } from "./explain-declaration.ts";
import type { CommandRun } from "../cli/command.ts";
import { closest } from "../closest.ts";

export const runExplain: CommandRun<typeof explain> = async (_values, [id]) => {
  console.log(id === undefined ? ruleList() : rulePage(knownRule(id)));
  return EXIT_OK;
};

function knownRule(id: string): RuleId {
  if (isRuleId(id)) return id;
  // "invalid" means signature/invalid: a rule's name without its family is nearest.
  const named = RULE_IDS.filter((rule) => rule.split(/[/:]/)[1] === id);
  const near = [...new Set([...named, ...closest(id, RULE_IDS)])].slice(0, 3);
  throw new UsageError(
    `unknown rule '${id}'; ` +
      `${near.length === 0 ? "'manifest-resolver explain' lists them all" : `did you mean: ${near.join(", ")}?`}`,
  );
}

/** `id  summary`, one line per rule, in the registry's order (by family). */
function ruleList(): string {
  const width = Math.max(...RULE_IDS.map((id) => id.length));
  return RULE_IDS.map((id) => `${id.padEnd(width)}  ${RULES[id].summary}`).join("\n");
}

function rulePage(id: RuleId): string {
  const { severity, summary, why, source, fix, example }: Rule = RULES[id];
  return [
    `${id}: ${summary}`,
    "",
    `Severity: ${severity}`,
    `Source: ${source}`,
    "",
    "Why it matters:",
    ...wrapped(why),
    "",
    "How to fix it:",
    ...wrapped(fix),
    ...(example === undefined ? [] : ["", "Example:", `  ${example}`]),
    "",
    `${toolPackage().homepage}/blob/main/docs/rules.md#${ruleAnchor(id)}`,
  ].join("\n");
}

/** `text` indented by two spaces, in lines of at most 80 characters (a longer word stays whole). */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 78) {
      lines.push(`  ${line}`);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  return [...lines, `  ${line}`];
}
