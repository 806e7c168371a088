/**
 * The public v0.4 conformance suite (../shared/peer/universal-manifest-v0.4), run through
 * `manifest-resolver check --json` as a publisher's CI would run it:
 * - structural surface: every entry without `validationMode` whose fixture is present
 *   gets the expected verdict;
 * - schema-sweep surface: our schema alone agrees with `schemaValidation` on every
 *   present fixture (an implicit accept where the entry has none).
 * Evaluation-mode verdicts (receipts under a pinned clock) are not the build's to give.
 * Then the v0.1 and v0.2 suites, and our copies of the legacy schemas (see below).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseJson } from "../core/json/strict-json.ts";
import { schemaValidators } from "../scripts/validate/schema-validator.ts";
import { CONTEXT } from "./support/fixture-content.ts";
import { CLI } from "./support/paths.ts";
import { sharedPath, skipWithoutShared } from "./support/shared.ts";

interface Entry {
  filename: string;
  expectedResult: "accept" | "reject";
  validationMode?: string;
  reason: string;
  schemaValidation?: { expectedResult: "accept" | "reject" };
}

const SUITE = "peer/universal-manifest-v0.4";
const skip = skipWithoutShared(`${SUITE}/expected.json`);
const entries: Entry[] = skip ? [] : JSON.parse(readFileSync(sharedPath(`${SUITE}/expected.json`), "utf8")).fixtures;
const present = entries.filter((e) => existsSync(sharedPath(`${SUITE}/${e.filename}`)));
const structural = present.filter((e) => e.validationMode === undefined);

describe("conformance suite v0.4: structural surface, through check --json", { skip }, () => {
  const run = spawnSync(process.execPath, [CLI, "check", "--json", ...structural.map((e) => sharedPath(`${SUITE}/${e.filename}`))], { encoding: "utf8" });
  const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { file: string; ok: boolean; errors: { rule: string }[] });

  it("runs every present structural fixture, one JSON line each", () => {
    assert.ok(structural.length >= 30, `only ${structural.length} structural fixtures present`);
    assert.equal(lines.length, structural.length);
    assert.equal(run.status, structural.some((e) => e.expectedResult === "reject") ? 1 : 0);
  });
  structural.forEach((entry, i) => {
    it(`${entry.expectedResult} ${entry.filename}`, () => {
      const line = lines[i]!;
      assert.ok(line.file.endsWith(entry.filename), line.file);
      assert.equal(line.ok ? "accept" : "reject", entry.expectedResult, `${entry.reason}\n${JSON.stringify(line.errors)}`);
    });
  });
});

describe("conformance suite v0.4: schema-sweep surface", { skip }, () => {
  const validate = schemaValidators(CONTEXT).manifest;
  for (const entry of present) {
    const expected = entry.schemaValidation?.expectedResult ?? "accept";
    it(`schema ${expected}s ${entry.filename}`, () => {
      const parsed = parseJson(readFileSync(sharedPath(`${SUITE}/${entry.filename}`), "utf8"));
      assert.ok(parsed.ok);
      assert.equal(validate(parsed.value).length === 0 ? "accept" : "reject", expected);
    });
  }
});

/**
 * The v0.1 and v0.2 suites (../shared/peer/legacy), through `check --json` as a publisher
 * would run it on files outside a content folder: every file opted in with
 * `--allow-unsigned` (v0.1 defines no verifiable signature), and a fixture whose
 * `__validate` asks for freshness checked with `--strict` at the wall clock.
 */
for (const version of ["v0.1", "v0.2"]) {
  const suite = `peer/legacy/${version}`;
  const skipLegacy = skipWithoutShared(`${suite}/expected.json`);
  const fixtures: Entry[] = skipLegacy ? [] : JSON.parse(readFileSync(sharedPath(`${suite}/expected.json`), "utf8")).fixtures;
  const pathOf = (entry: Entry) => sharedPath(`${suite}/${entry.filename}`);
  const fresh = (entry: Entry) => (JSON.parse(readFileSync(pathOf(entry), "utf8")) as { __validate?: string }).__validate === "fresh";

  describe(`legacy suite ${version}: through check --json --allow-unsigned`, { skip: skipLegacy }, () => {
    const verdicts = new Map<string, { ok: boolean; rules: string[] }>();
    for (const [entries, flags] of [
      [fixtures.filter((e) => !fresh(e)), []],
      [fixtures.filter(fresh), ["--strict"]],
    ] as const) {
      const files = entries.map(pathOf);
      const run = spawnSync(process.execPath, [CLI, "check", "--json", ...flags, ...files.flatMap((f) => ["--allow-unsigned", f]), ...files], { encoding: "utf8" });
      for (const line of run.stdout.trim().split("\n").filter(Boolean)) {
        const { file, ok, errors } = JSON.parse(line) as { file: string; ok: boolean; errors: { rule: string }[] };
        verdicts.set(file, { ok, rules: errors.map((e) => e.rule) });
      }
    }

    it("checks every fixture of expected.json", () => {
      assert.ok(fixtures.length >= 15, `only ${fixtures.length} fixtures`);
      for (const entry of fixtures) assert.ok([...verdicts.keys()].some((file) => file.endsWith(entry.filename)), entry.filename);
    });
    for (const entry of fixtures) {
      it(`${entry.expectedResult} ${entry.filename}`, () => {
        const [, verdict] = [...verdicts].find(([file]) => file.endsWith(entry.filename))!;
        assert.equal(verdict.ok ? "accept" : "reject", entry.expectedResult, `${entry.reason}\n${verdict.rules.join(", ")}`);
        if (fresh(entry) && entry.expectedResult === "reject") assert.ok(verdict.rules.includes("time/expired"), verdict.rules.join(", "));
      });
    }
  });
}

for (const version of ["v0.1", "v0.2", "v0.3"]) {
  const published = `peer/legacy/${version}/schema.json`;
  it(`our copy of the ${version} schema is the published one`, { skip: skipWithoutShared(published) }, () => {
    const ours = JSON.parse(readFileSync(new URL(`../scripts/validate/legacy/${version}.schema.json`, import.meta.url), "utf8"));
    assert.deepEqual(ours, JSON.parse(readFileSync(sharedPath(published), "utf8")));
  });
}
