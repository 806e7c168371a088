/**
 * The rule registry (core/rules/) is whole and alive: every entry says all a page needs,
 * no id is defined twice, every rule is reported somewhere in the source, and the schema
 * rules are exactly the keywords our schemas can report.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CONTENT_RULES } from "../../core/rules/content.ts";
import { CONFIG_RULES } from "../../core/rules/config.ts";
import { HISTORY_RULES } from "../../core/rules/history.ts";
import { RULE_IDS, RULES, SEVERITIES, type Rule } from "../../core/rules/index.ts";
import { JSON_RULES } from "../../core/rules/json.ts";
import { LOG_RULES } from "../../core/rules/log.ts";
import { MANIFEST_RULES } from "../../core/rules/manifest.ts";
import { RELYING_PARTY_RULES } from "../../core/rules/relying-party.ts";
import { ROUTES_RULES } from "../../core/rules/routes.ts";
import { SCHEMA_KEYWORDS } from "../../core/rules/schema-keywords.ts";
import { SCHEMA_RULES } from "../../core/rules/schema.ts";
import { SIGNATURE_RULES } from "../../core/rules/signature.ts";
import { STATUS_LIST_RULES } from "../../core/rules/status-list.ts";
import { manifestSchema } from "../../core/validate/manifest-schema.ts";
import { keysSchema } from "../../scripts/validate/keys-schema.ts";
import { routesSchema } from "../../scripts/validate/routes-schema.ts";
import { unsignedSchema } from "../../scripts/validate/unsigned-schema.ts";
import { ROOT } from "../support/paths.ts";

/** Every file under `dirs` whose name ends with one of `extensions`, by path. */
function files(dirs: string[], extensions: RegExp): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true })
      .map((name) => join(dir, String(name)))
      .filter((path) => extensions.test(path)),
  );
}

test("every rule says what is wrong (one line), why, where from and how to fix it", () => {
  for (const id of RULE_IDS) {
    const rule: Rule = RULES[id];
    assert.ok(SEVERITIES.includes(rule.severity), id);
    for (const field of ["summary", "why", "source", "fix", "example"] as const) {
      const text = rule[field];
      if (field === "example" && text === undefined) continue;
      assert.ok(typeof text === "string" && text.trim() === text && text.length > 0, `${id}: ${field} is empty`);
    }
    assert.doesNotMatch(rule.summary, /\n|\.$/, `${id}: a summary is one line, a phrase`);
    assert.match(id, /^[a-z]+(?:-[a-z]+)*[/:][a-zA-Z0-9-]+$/, `${id}: family/name`);
  }
});

test("no rule is defined in two families", () => {
  const families = [
    JSON_RULES,
    SCHEMA_RULES,
    MANIFEST_RULES,
    SIGNATURE_RULES,
    CONTENT_RULES,
    CONFIG_RULES,
    ROUTES_RULES,
    HISTORY_RULES,
    LOG_RULES,
    RELYING_PARTY_RULES,
    STATUS_LIST_RULES,
  ];
  assert.equal(
    families.reduce((n, family) => n + Object.keys(family).length, 0),
    RULE_IDS.length,
  );
});

test("every rule but the schema's is reported by the source (no dead rules)", () => {
  const source = files(["core", "edge", "lookup-page", "scripts"], /\.ts$/)
    .filter((path) => !path.startsWith(join("core", "rules")))
    .map((path) => readFileSync(join(ROOT, path), "utf8"))
    .join("\n");
  const dead = RULE_IDS.filter((id) => !id.startsWith("schema/") && !source.includes(`"${id}"`));
  assert.deepEqual(dead, [], "rules no code reports: remove them from core/rules/, or report them");
});

/** Keywords whose own errors ajv never reports: annotations, and those that only hold subschemas. */
const SILENT = new Set([
  ..."$schema $id $ref $comment $defs definitions description title default examples".split(" "),
  ..."properties patternProperties items prefixItems allOf then else".split(" "),
]);
const SUBSCHEMA = new Set(["items", "additionalProperties", "contains", "propertyNames", "not", "then", "else"]);
const SUBSCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

/** The keywords of `schema` and its subschemas whose errors ajv reports. */
function reportedKeywords(schema: unknown, into = new Set<string>()): Set<string> {
  if (typeof schema !== "object" || schema === null) return into;
  for (const [keyword, value] of Object.entries(schema)) {
    // ajv reports a failed `if` itself (schema-problems.ts drops it), never what fails inside it.
    if (keyword === "if") continue;
    if (!SILENT.has(keyword)) into.add(keyword);
    if (SUBSCHEMA.has(keyword)) reportedKeywords(value, into);
    if (SUBSCHEMA_LISTS.has(keyword)) for (const sub of value as unknown[]) reportedKeywords(sub, into);
    if (SUBSCHEMA_MAPS.has(keyword)) for (const sub of Object.values(value as object)) reportedKeywords(sub, into);
  }
  return into;
}

test("the schema rules are exactly the keywords our schemas can report", () => {
  const legacy = files(["scripts/validate/legacy"], /\.schema\.json$/).map((path) =>
    JSON.parse(readFileSync(join(ROOT, path), "utf8")),
  );
  const keywords = new Set<string>();
  for (const schema of [
    manifestSchema("https://standards.example"),
    routesSchema,
    keysSchema,
    unsignedSchema,
    ...legacy,
  ])
    reportedKeywords(schema, keywords);
  assert.deepEqual([...keywords].sort(), [...SCHEMA_KEYWORDS].sort());
  assert.deepEqual(Object.keys(SCHEMA_RULES).sort(), SCHEMA_KEYWORDS.map((k) => `schema/${k}`).sort());
  // The validators generated ahead of time report no other.
  for (const path of files(["core/validate/generated"], /\.js$/)) {
    const generated = new Set(
      [...readFileSync(join(ROOT, path), "utf8").matchAll(/keyword:"([^"]+)"/g)].map((m) => m[1]!),
    );
    generated.delete("if");
    assert.deepEqual(
      [...generated].filter((k) => !keywords.has(k)),
      [],
      path,
    );
  }
});
