/**
 * `check --sarif FILE` and `build --sarif FILE`: a SARIF 2.1.0 log as GitHub code scanning
 * reads it, of the same problems (rule, file) as `check --json`, and the same exit status
 * as without the option.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { ruleAnchor, RULES, type RuleId } from "../core/rules/index.ts";
import { artifactUri } from "../scripts/report/sarif.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { ROOT } from "./support/paths.ts";
import { sharedPath, skipWithoutShared } from "./support/shared.ts";

const SCHEMA = "peer/sarif/sarif-schema-2.1.0.json";
const scratch = mkdtempSync(join(tmpdir(), "um-sarif-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[]) {
  return runCliInProcess(args, scratch);
}

function write(path: string, value: unknown): void {
  const full = join(scratch, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
}

interface SarifLog {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        informationUri: string;
        rules: {
          id: RuleId;
          shortDescription: { text: string };
          fullDescription: { text: string };
          helpUri: string;
          defaultConfiguration: { level: string };
        }[];
      };
    };
    results: {
      ruleId: RuleId;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string };
          region?: { startLine: number; startColumn: number };
        };
      }[];
    }[];
  }[];
}

const readLog = (file: string) => JSON.parse(readFileSync(join(scratch, file), "utf8")) as SarifLog;

/** Each problem of a SARIF log as `rule uri line:column`, sorted. */
function sarifProblems(log: SarifLog): string[] {
  return log.runs[0]!.results.map(({ ruleId, locations: [at] }) => {
    const region = at!.physicalLocation.region;
    return (
      `${ruleId} ${at!.physicalLocation.artifactLocation.uri} ` +
      `${region ? `${region.startLine}:${region.startColumn}` : "-"}`
    );
  }).sort();
}

/** Each problem of `check --json` the same way, its file as a URI relative to the folder it ran in. */
function jsonProblems(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .flatMap((line) => {
      const { file, errors, warnings } = JSON.parse(line) as {
        file: string;
        errors: { rule: string; line: number | null; column: number | null }[];
        warnings: { rule: string; line: number | null; column: number | null }[];
      };
      const uri = file.split("/").map(encodeURIComponent).join("/");
      return [...errors, ...warnings].map((p) => `${p.rule} ${uri} ${p.line === null ? "-" : `${p.line}:${p.column}`}`);
    })
    .sort();
}

describe("--sarif FILE", () => {
  const key = newKey();
  write("content/good.json", signed(manifestFor("urn:good"), key));
  const { subject: _, ...noSubject } = manifestFor("urn:no-subject");
  write("content/people/no subject.json", signed(noSubject, key));
  write("content/broken.json", '{ "@id": "urn:broken", }\n');
  write("content/tampered.json", { ...signed(manifestFor("urn:tampered"), key), subject: "did:web:mallory.example" });
  write("content/_routes.json", { revoked: [{ umid: "urn:gone" }] });
  mkdirSync(join(scratch, "out"));
  const runs: Record<string, Awaited<ReturnType<typeof cli>>> = {};
  before(async () => {
    runs.json = await cli(["check", "content", "--json"]);
    runs.check = await cli(["check", "content"]);
    runs.checkSarif = await cli(["check", "content", "--sarif", "out/check.sarif"]);
    const build = ["build", "--content", "content", "--out", "dist", "--lookup-out", "dist-lookup"];
    runs.build = await cli(build);
    runs.buildSarif = await cli([...build, "--sarif", "out/build.sarif"]);
  });

  it(
    "check: the problems of check --json, each at its file relative to the " +
      "repository and its place; the same exit status",
    async () => {
      assert.equal(runs.check!.status, 1, runs.check!.stdout);
      assert.equal(runs.checkSarif!.status, runs.check!.status);
      assert.equal(runs.checkSarif!.stdout, runs.check!.stdout, "what is printed does not change");
      const problems = sarifProblems(readLog("out/check.sarif"));
      assert.deepEqual(problems, jsonProblems(runs.json!.stdout));
      assert.ok(problems.includes("schema/required content/people/no%20subject.json 1:1"), problems.join("\n"));
      assert.ok(problems.includes("keys/none-pinned content/_keys.json -"), problems.join("\n"));
    },
  );

  it("build: the same problems, whatever the build's outcome; the same exit status", async () => {
    assert.equal(runs.build!.status, 1, runs.build!.stdout);
    assert.equal(runs.buildSarif!.status, runs.build!.status);
    assert.deepEqual(sarifProblems(readLog("out/build.sarif")), sarifProblems(readLog("out/check.sarif")));
  });

  it("names the tool, and each rule that occurs once, with its page in docs/rules.md", async () => {
    const { homepage, version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const [run] = readLog("out/check.sarif").runs;
    const { driver } = run!.tool;
    assert.deepEqual([driver.name, driver.version, driver.informationUri], ["manifest-resolver", version, homepage]);
    assert.deepEqual(
      driver.rules.map((r) => r.id),
      [...new Set(run!.results.map((r) => r.ruleId))],
    );
    for (const rule of driver.rules) {
      assert.deepEqual(rule, {
        ...rule,
        shortDescription: { text: RULES[rule.id].summary },
        fullDescription: { text: RULES[rule.id].why },
        helpUri: `${homepage}/blob/main/docs/rules.md#${ruleAnchor(rule.id)}`,
        defaultConfiguration: { level: RULES[rule.id].severity },
      });
    }
    for (const result of run!.results) {
      assert.equal(driver.rules[result.ruleIndex]!.id, result.ruleId);
      assert.ok(result.message.text.length > 0);
    }
    const levels = new Set(run!.results.map((r) => `${r.ruleId} ${r.level}`));
    assert.ok(levels.has("schema/required error") && levels.has("routes/undated warning"), [...levels].join("\n"));
  });

  it("is valid SARIF 2.1.0", { skip: skipWithoutShared(SCHEMA) }, async () => {
    const schema = JSON.parse(readFileSync(sharedPath(SCHEMA), "utf8"));
    // A draft-04 schema, which Ajv reads as draft-07 once its `$schema` and `id` say it so: nothing else in it differs.
    delete schema.$schema;
    schema.$id = schema.id;
    delete schema.id;
    const ajv = new Ajv({ allErrors: true, strict: false });
    // ajv-formats is CommonJS with a `default` property; under ESM the callable is either.
    ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule)(ajv);
    const validate = ajv.compile(schema);
    for (const file of ["out/check.sarif", "out/build.sarif"]) {
      assert.ok(validate(readLog(file)), `${file}: ${ajv.errorsText(validate.errors)}`);
    }
    assert.equal(
      validate({ version: "2.1.0", runs: [{ tool: { driver: {} } }] }),
      false,
      "the schema rejects a bad log",
    );
  });

  it("a FILE in a folder that is not there is a usage error, before any work", async () => {
    const result = await cli(["check", "content", "--sarif", "nowhere/x.sarif"]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--sarif: there is no folder nowhere to write nowhere\/x\.sarif in/);
  });
});

describe("SARIF artifact URIs", () => {
  it("relative to the repository's root, / between percent-encoded segments; outside it, a file: URI", async () => {
    const root = join(tmpdir(), "repo");
    assert.equal(artifactUri(join(root, "content", "a b#?.json"), root), "content/a%20b%23%3F.json");
    assert.equal(artifactUri(join(root, "x.json@1a2b"), root), "x.json%401a2b");
    const outside = join(tmpdir(), "elsewhere", "m.json");
    assert.equal(artifactUri(outside, root), pathToFileURL(outside).href);
  });
});
