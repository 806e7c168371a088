/**
 * The public v0.4 conformance suite (../shared/peer/universal-manifest-v0.4), every
 * present entry on its own surface, as SUITE-README.md defines them:
 * - structural surface: every entry without `validationMode` gets the expected verdict
 *   from `manifest-resolver check --json`, as a publisher's CI would run it;
 * - evaluation surface: every `validationMode: "evaluation"` entry, evaluated under its
 *   `evaluationContext`, gets the expected verdict and satisfies every `expected*`
 *   assertion on its receipt, and the receipt validates against our receipt schema;
 * - the evaluator never disagrees with `check` on a structural entry;
 * - schema-sweep surface: our schema alone agrees with `schemaValidation` on every
 *   present fixture (an implicit accept where the entry has none).
 * Then the v0.1 and v0.2 suites, and our copies of the legacy schemas (see below).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { receiptSchema, type EvaluationContext, type Receipt } from "../core/evaluate/index.ts";
import { offlineEvaluate } from "./support/offline-evaluate.ts";
import { DEFAULT_LIMITS } from "../core/evaluate/limits.ts";
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
  evaluationContext?: EvaluationContext;
  [assertion: `expected${string}`]: unknown;
}

const SUITE = "peer/universal-manifest-v0.4";
const skip = skipWithoutShared(`${SUITE}/expected.json`);
const entries: Entry[] = skip ? [] : JSON.parse(readFileSync(sharedPath(`${SUITE}/expected.json`), "utf8")).fixtures;
const present = entries.filter((e) => existsSync(sharedPath(`${SUITE}/${e.filename}`)));
const structural = present.filter((e) => e.validationMode === undefined);
const evaluation = present.filter((e) => e.validationMode === "evaluation");
const fixtureText = (entry: Entry) => readFileSync(sharedPath(`${SUITE}/${entry.filename}`), "utf8");

const run = skip
  ? undefined
  : spawnSync(
      process.execPath,
      [CLI, "check", "--json", ...structural.map((e) => sharedPath(`${SUITE}/${e.filename}`))],
      { encoding: "utf8" },
    );
const lines =
  run === undefined
    ? []
    : run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { file: string; ok: boolean; errors: { rule: string }[] });

describe("conformance suite v0.4: structural surface, through check --json", { skip }, () => {
  it("runs every present structural fixture, one JSON line each", () => {
    assert.ok(structural.length >= 30, `only ${structural.length} structural fixtures present`);
    assert.equal(lines.length, structural.length);
    assert.equal(run!.status, structural.some((e) => e.expectedResult === "reject") ? 1 : 0);
  });
  structural.forEach((entry, i) => {
    it(`${entry.expectedResult} ${entry.filename}`, () => {
      const line = lines[i]!;
      assert.ok(line.file.endsWith(entry.filename), line.file);
      assert.equal(
        line.ok ? "accept" : "reject",
        entry.expectedResult,
        `${entry.reason}\n${JSON.stringify(line.errors)}`,
      );
    });
  });
});

/**
 * Each receipt assertion of SUITE-README.md ("Receipt assertions"), by its name in
 * expected.json: the problems with a receipt, none when it holds.
 */
const SCALAR_ASSERTIONS: Record<string, (r: Receipt) => unknown> = {
  expectedReceiptOutcome: (r) => r.outcome,
  expectedSignatureCheck: (r) => r.signatureCheck,
  expectedFreshnessCheck: (r) => r.freshnessCheck,
  expectedKeyRefResolution: (r) => r.keyRefResolution,
  expectedRevocationStatus: (r) => r.revocationStatus,
  expectedHolderBindingStatus: (r) => r.holderBindingStatus,
  expectedPresentationProofStatus: (r) => r.presentationProofStatus,
  expectedEffectiveTrustTier: (r) => r.effectiveTrustTier,
  expectedLivenessFreshnessClass: (r) => r.livenessStatus.freshnessClass,
};
const LIST_ASSERTIONS: Record<string, (r: Receipt, expected: never) => boolean> = {
  expectedFacetStatus: (
    r,
    e: { facetId: string; status: string; assuranceStatus?: { assertedClass: string; met: boolean } },
  ) =>
    r.facetStatuses.some(
      (f) =>
        f.facetId === e.facetId &&
        f.status === e.status &&
        (e.assuranceStatus === undefined ||
          (f.assuranceStatus?.assertedClass === e.assuranceStatus.assertedClass &&
            f.assuranceStatus.met === e.assuranceStatus.met)),
    ),
  expectedClaimStatus: (r, e: { claimRef?: string; status: string; tier?: number }) =>
    r.claimStatuses.some(
      (c) =>
        (e.claimRef === undefined || c.claimRef === e.claimRef) &&
        c.status === e.status &&
        (e.tier === undefined || c.tier === e.tier),
    ),
  expectedConsentStatus: (r, e: { consentRef?: string; status: string }) =>
    r.consentStatuses.some(
      (c) => (e.consentRef === undefined || c.consentRef === e.consentRef) && c.status === e.status,
    ),
  expectedWarningsContain: (r, markers: string[]) =>
    markers.every((marker) => r.warnings.some((w) => JSON.stringify(w).includes(marker))),
  expectedUnprocessedEntry: (r, e: { kind: string; type: string }) =>
    r.unprocessedEntries.some((u) => u.kind === e.kind && u.type === e.type),
};

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const validateReceipt = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(receiptSchema);
})();

describe("conformance suite v0.4: evaluation surface, through evaluate()", { skip }, () => {
  it("has every evaluation entry present", () =>
    assert.ok(evaluation.length >= 25, `only ${evaluation.length} evaluation fixtures present`));
  for (const entry of evaluation) {
    it(`${entry.expectedResult} ${entry.filename}`, async () => {
      // The suite's expected results are an evaluator's that fetches nothing: its did:web hosts do not exist.
      const receipt = await offlineEvaluate(fixtureText(entry), entry.evaluationContext);
      const shown = `${entry.reason}\n${JSON.stringify(receipt, null, 2)}`;
      assert.equal(receipt.outcome === "rejected" ? "reject" : "accept", entry.expectedResult, shown);
      const assertions = Object.keys(entry).filter((key) => key.startsWith("expected") && key !== "expectedResult");
      assert.ok(assertions.length > 0, "an evaluation entry asserts something of its receipt");
      for (const name of assertions) {
        const scalar = SCALAR_ASSERTIONS[name];
        const list = LIST_ASSERTIONS[name];
        assert.ok(scalar ?? list, `${name}: an assertion SUITE-README.md does not define`);
        if (scalar) assert.deepEqual(scalar(receipt), entry[name as `expected${string}`], `${name}\n${shown}`);
        else
          assert.ok(
            list!(receipt, entry[name as `expected${string}`] as never),
            `${name}: ${JSON.stringify(entry[name as `expected${string}`])}\n${shown}`,
          );
      }
      assert.ok(validateReceipt(receipt), `receipt schema: ${JSON.stringify(validateReceipt.errors)}`);
      assert.equal(
        receipt.processedAt,
        entry.evaluationContext?.omitProcessedAt ? undefined : entry.evaluationContext?.now,
      );
    });
  }
});

describe("conformance suite v0.4: the evaluator agrees with check on every structural entry", { skip }, () => {
  // At an instant where every valid fixture is current, so only structure can reject.
  const context = { now: "2026-06-01T00:01:00Z" };
  structural.forEach((entry, i) => {
    it(`${entry.expectedResult} ${entry.filename}`, async () => {
      const receipt = await offlineEvaluate(fixtureText(entry), context);
      const structuralFaults = receipt.warnings.filter(
        (w) => w.code.startsWith("um:reason:arrive:") || w.code.startsWith("um:reason:crypto:"),
      );
      const verdict = structuralFaults.length === 0 && receipt.signatureCheck === "valid" ? "accept" : "reject";
      assert.equal(
        verdict,
        lines[i]!.ok ? "accept" : "reject",
        `check says ${JSON.stringify(lines[i])}; the receipt ${JSON.stringify(receipt.warnings)}`,
      );
      if (verdict === "reject") assert.equal(receipt.outcome, "rejected");
      assert.ok(validateReceipt(receipt), `receipt schema: ${JSON.stringify(validateReceipt.errors)}`);
    });
  });
});

describe("conformance suite v0.4: schema-sweep surface", { skip }, () => {
  const validate = schemaValidators(CONTEXT, "").manifest;
  for (const entry of present) {
    const expected = entry.schemaValidation?.expectedResult ?? "accept";
    it(`schema ${expected}s ${entry.filename}`, () => {
      const parsed = parseJson(readFileSync(sharedPath(`${SUITE}/${entry.filename}`), "utf8"), DEFAULT_LIMITS);
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
  const fixtures: Entry[] = skipLegacy
    ? []
    : JSON.parse(readFileSync(sharedPath(`${suite}/expected.json`), "utf8")).fixtures;
  const pathOf = (entry: Entry) => sharedPath(`${suite}/${entry.filename}`);
  const fresh = (entry: Entry) =>
    (JSON.parse(readFileSync(pathOf(entry), "utf8")) as { __validate?: string }).__validate === "fresh";

  describe(`legacy suite ${version}: through check --json --allow-unsigned`, { skip: skipLegacy }, () => {
    const verdicts = new Map<string, { ok: boolean; rules: string[] }>();
    for (const [entries, flags] of [
      [fixtures.filter((e) => !fresh(e)), []],
      [fixtures.filter(fresh), ["--strict"]],
    ] as const) {
      const files = entries.map(pathOf);
      const run = spawnSync(
        process.execPath,
        [CLI, "check", "--json", ...flags, ...files.flatMap((f) => ["--allow-unsigned", f]), ...files],
        { encoding: "utf8" },
      );
      for (const line of run.stdout.trim().split("\n").filter(Boolean)) {
        const { file, ok, errors } = JSON.parse(line) as { file: string; ok: boolean; errors: { rule: string }[] };
        verdicts.set(file, { ok, rules: errors.map((e) => e.rule) });
      }
    }

    it("checks every fixture of expected.json", () => {
      assert.ok(fixtures.length >= 15, `only ${fixtures.length} fixtures`);
      for (const entry of fixtures)
        assert.ok(
          [...verdicts.keys()].some((file) => file.endsWith(entry.filename)),
          entry.filename,
        );
    });
    for (const entry of fixtures) {
      it(`${entry.expectedResult} ${entry.filename}`, () => {
        const [, verdict] = [...verdicts].find(([file]) => file.endsWith(entry.filename))!;
        assert.equal(
          verdict.ok ? "accept" : "reject",
          entry.expectedResult,
          `${entry.reason}\n${verdict.rules.join(", ")}`,
        );
        if (fresh(entry) && entry.expectedResult === "reject")
          assert.ok(verdict.rules.includes("time/expired"), verdict.rules.join(", "));
      });
    }
  });
}

for (const version of ["v0.1", "v0.2", "v0.3"]) {
  const published = `peer/legacy/${version}/schema.json`;
  it(`our copy of the ${version} schema is the published one`, { skip: skipWithoutShared(published) }, () => {
    const ours = JSON.parse(
      readFileSync(new URL(`../scripts/validate/legacy/${version}.schema.json`, import.meta.url), "utf8"),
    );
    assert.deepEqual(ours, JSON.parse(readFileSync(sharedPath(published), "utf8")));
  });
}
