/**
 * `manifest-resolver explain [RULE]`: a rule's page from the registry, the list of rules, and the nearest to a typo.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RULE_IDS, RULES } from "../core/rules/index.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";

function explain(...args: string[]) {
  return runCliInProcess(["explain", ...args], process.cwd());
}

describe("explain", () => {
  it("with no RULE, lists every rule with its summary, one per line", async () => {
    const { status, stdout } = await explain();
    assert.equal(status, 0);
    const lines = stdout.trimEnd().split("\n");
    assert.deepEqual(
      lines.map((line) => line.split(/ {2,}/)),
      RULE_IDS.map((id) => [id, RULES[id].summary]),
    );
  });

  it("prints a rule's page: severity, summary, why, source, fix, example, and its section of docs/rules.md", async () => {
    const { status, stdout } = await explain("json/duplicate-key");
    assert.equal(status, 0);
    const rule = RULES["json/duplicate-key"];
    const text = stdout.replace(/\n {2}/g, " ");
    assert.ok(stdout.startsWith(`json/duplicate-key: ${rule.summary}\n`), stdout);
    for (const part of [`Severity: ${rule.severity}`, `Source: ${rule.source}`, rule.why, rule.fix, rule.example])
      assert.ok(text.includes(part), `no ${JSON.stringify(part)} in:\n${stdout}`);
    assert.match(stdout, /\/blob\/main\/docs\/rules\.md#jsonduplicate-key\n$/);
    const prose = stdout.split("\n").filter((line) => line.startsWith("  ") && line.trim() !== rule.example);
    assert.ok(prose.length > 2 && prose.every((line) => line.length <= 80), `prose wrapped at 80:\n${stdout}`);
  });

  it("an unknown RULE is a usage error that names the nearest rules", async () => {
    const typo = await explain("signature/invalide");
    assert.equal(typo.status, 2);
    assert.match(
      typo.stderr,
      /^manifest-resolver: unknown rule 'signature\/invalide'; did you mean: signature\/invalid/,
    );
    assert.match((await explain("weak-key")).stderr, /did you mean: signature\/weak-key, keys\/weak-key\?/);
    const far = await explain("nothing-like-a-rule-at-all");
    assert.equal(far.status, 2);
    assert.match(far.stderr, /unknown rule 'nothing-like-a-rule-at-all'; 'manifest-resolver explain' lists them all/);
    assert.equal((await explain("json/syntax", "json/encoding")).status, 2);
  });
});
