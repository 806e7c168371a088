/**
 * The public v0.4 conformance suite (../shared/peer/universal-manifest-v0.4), run through
 * `manifest-resolver check --json` as a publisher's CI would run it:
 * - structural surface: every entry without `validationMode` whose fixture is present
 *   gets the expected verdict;
 * - schema-sweep surface: our schema alone agrees with `schemaValidation` on every
 *   present fixture (an implicit accept where the entry has none).
 * Evaluation-mode verdicts (receipts under a pinned clock) are not the build's to give.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseJson } from "../scripts/json/strict-json.ts";
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
