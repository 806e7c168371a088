/**
 * `npm run docs:rules`: docs/rules.md, generated from the rule registry (core/rules/): an
 * index, then one section per rule under a heading whose anchor (GitHub's, from the id:
 * ruleAnchor) `explain` and SARIF logs link to. tests/unit/rules-doc.test.ts fails when
 * the committed file is not what this writes.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RULE_IDS, RULES, ruleAnchor, type Rule, type RuleId } from "../core/rules/index.ts";

export const RULES_DOC = fileURLToPath(new URL("../docs/rules.md", import.meta.url));

export function rulesMarkdown(): string {
  return [
    "# Rules",
    "",
    "<!-- Generated from core/rules/ by `npm run docs:rules`: edit the registry, not this file. -->",
    "",
    "Every problem manifest-resolver reports names one of these rules, as",
    "`file:line:col - error RULE: message at /json/pointer` (`check`, `build`, `sign`,",
    "`evaluate`), as a receipt warning's `rule` (`evaluate`, `resolve`), or as a SARIF",
    "result's `ruleId` (`check --sarif`, `build --sarif`). `manifest-resolver explain RULE`",
    "prints a rule's section in a terminal. A severity is the rule's default: under",
    "`check --strict`, `time/expired`, `time/not-yet-issued` and `keys/none-pinned` are errors.",
    "",
    ...table(
      ["Rule", "Severity", "What is wrong"],
      RULE_IDS.map((id) => [`[${id}](#${ruleAnchor(id)})`, RULES[id].severity, escaped(RULES[id].summary)]),
    ),
    ...RULE_IDS.flatMap((id) => ["", ...section(id, RULES[id])]),
    "",
  ].join("\n");
}

function section(id: RuleId, { severity, summary, why, source, fix, example }: Rule): string[] {
  return [
    `## ${id}`,
    "",
    `${escaped(summary.replace(/^./, (c) => c.toUpperCase()))}.`,
    "",
    `**Severity:** ${severity}. **Source:** ${escaped(source)}.`,
    "",
    `**Why it matters.** ${escaped(why)}`,
    "",
    `**How to fix it.** ${escaped(fix)}`,
    ...(example === undefined ? [] : ["", "```text", example, "```"]),
  ];
}

/** A Markdown table with its columns aligned, as Biome formats one. */
function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

/** Prose as Markdown shows it as written: its punctuation that Markdown reads as markup escaped. */
function escaped(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, "\\$&");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(RULES_DOC, rulesMarkdown());
  console.log(`wrote ${RULES_DOC}`);
}
