/** docs/rules.md is generated from the rule registry (tools/rules-doc.ts), and kept so. */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { RULE_IDS, ruleAnchor } from "../../core/rules/index.ts";
import { RULES_DOC, rulesMarkdown } from "../../tools/rules-doc.ts";

test("docs/rules.md is what npm run docs:rules writes from core/rules/", () => {
  const committed = existsSync(RULES_DOC) ? readFileSync(RULES_DOC, "utf8") : "(none)";
  assert.ok(committed === rulesMarkdown(), "docs/rules.md is out of date with core/rules/: run npm run docs:rules");
});

test("each rule has its own section, under a heading whose anchor is the rule's", () => {
  const headings = [...rulesMarkdown().matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(headings, RULE_IDS);
  // GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces as -.
  const anchors = RULE_IDS.map(ruleAnchor);
  assert.deepEqual(
    anchors,
    RULE_IDS.map((id) =>
      id
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
  assert.equal(new Set(anchors).size, anchors.length, "no two rules share an anchor");
});
