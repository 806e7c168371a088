/**
 * A value of a megabyte (a million-digit number, a string, a member name) is quoted in a
 * problem as an excerpt, and the place it is at too, in every printer: `check` as text,
 * as `--json`, as GitHub annotations and with code frames, and `evaluate`'s receipt and
 * diagnostics. One file's problems stay under 100 KB, and still name their rules.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Receipt } from "../core/evaluate/index.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { CLI } from "./support/paths.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-huge-values-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const MILLION = 1_000_000;
/** What one file's problems may print, at most, in any form. */
const BOUND = 100_000;
const key = newKey();
const facet = { "@id": "urn:f:1", "@type": "um:Facet" };
const consent = {
  "@id": "urn:c:1",
  "@type": "um:Consent",
  facetRef: "urn:f:1",
  scope: ["read"],
  purpose: "p".repeat(MILLION),
  grantedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2029-01-01T00:00:00Z",
};
/** A number literal in place of requiredTrustTier's 0. */
const withNumber = (umid: string, literal: string) =>
  JSON.stringify(signed(manifestFor(umid, { requiredTrustTier: 0 }), key)).replace(
    '"requiredTrustTier":0',
    `"requiredTrustTier":${literal}`,
  );

/** File name → its text, and the rules `check` reports for it. */
const FILES: Record<string, [string, string[]]> = {
  "number-range.json": [withNumber("urn:huge:range", "9".repeat(MILLION)), ["json/number-range"]],
  "unsafe-number.json": [
    withNumber("urn:huge:unsafe", `9007199254740993.${"0".repeat(MILLION - 20)}1`),
    ["json/unsafe-number"],
  ],
  "duplicate-key.json": [`{"${"k".repeat(MILLION / 2)}":1,"${"k".repeat(MILLION / 2)}":2}`, ["json/duplicate-key"]],
  "format.json": [
    JSON.stringify(signed(manifestFor("urn:huge:format", { issuedAt: "x".repeat(MILLION) }), key)),
    ["schema/format"],
  ],
  "enum.json": [
    JSON.stringify(
      signed(
        manifestFor("urn:huge:enum", { facets: [{ ...facet, requiredAssuranceClass: "h".repeat(MILLION) }] }),
        key,
      ),
    ),
    ["schema/enum"],
  ],
  "member-name.json": [
    JSON.stringify(
      signed(
        manifestFor("urn:huge:name", {
          facets: [{ ...facet, requiredLiveness: { minFreshness: "live", ["k".repeat(MILLION)]: true } }],
        }),
        key,
      ),
    ),
    // A warning of check's only: the evaluator ignores an unknown member (core §3.1.1).
    ["liveness/unknown-member"],
  ],
  "key-ref.json": [
    JSON.stringify({
      ...manifestFor("urn:huge:keyref"),
      signature: signProfileA(manifestFor("urn:huge:keyref"), key, `did:web:x.example#${"k".repeat(MILLION)}`),
    }),
    ["signature/unpinned-key"],
  ],
  "private-key.json": [
    JSON.stringify(
      signed(manifestFor("urn:huge:pem", { note: `-----BEGIN ${"A ".repeat(MILLION / 2)}PRIVATE KEY-----` }), key),
    ),
    ["content/private-key"],
  ],
  "purpose.json": [
    JSON.stringify(signed(manifestFor("urn:huge:purpose", { facets: [facet], consents: [consent] }), key)),
    [],
  ],
  // Not one huge value but a thousand faults, each quoting 300 characters: the problems listed stop at a cap.
  "with-many-faults.json": [
    JSON.stringify(
      signed(
        manifestFor("urn:huge:many", {
          facets: Array.from({ length: 1000 }, (_, i) => ({
            ...facet,
            "@id": `urn:f:${i}`,
            requiredAssuranceClass: "h".repeat(300),
            [`m${"k".repeat(300)}`]: "v".repeat(300),
          })),
        }),
        key,
      ),
    ),
    ["schema/enum", "limits/problems"],
  ],
};
const content = join(scratch, "content");
mkdirSync(content);
writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
for (const [name, [text]] of Object.entries(FILES)) {
  assert.ok(text.length > MILLION / 2 && text.length < 1_048_576, `${name} is ${text.length} characters`);
  writeFileSync(join(content, name), text);
}

function cli(args: string[], env: Record<string, string> = {}) {
  const inherited = { ...process.env };
  for (const name of ["FORCE_COLOR", "NO_COLOR", "GITHUB_ACTIONS", "CI"]) delete inherited[name];
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: scratch,
    encoding: "utf8",
    env: { ...inherited, ...env },
    maxBuffer: 64 * MILLION,
    timeout: 120_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    size: result.stdout.length + result.stderr.length,
  };
}

const allRules = Object.values(FILES).flatMap(([, rules]) => rules);

describe("check, of files that each hold a value of a megabyte", () => {
  // All the files at once, so the whole output (not only each file's) must stay under the bound.
  for (const [form, env, printed] of [
    ["as text, and as GitHub annotations", { GITHUB_ACTIONS: "true" }, /^::error file=content\/number-range\.json,/m],
    ["with code frames", { FORCE_COLOR: "1" }, /^ 1 \| /m],
  ] as const) {
    it(`${form}: quotes excerpts, names every rule, prints less than ${BOUND} characters in all`, () => {
      // Every problem printed: a cap on how many would hide what this is about.
      const result = cli(["check", "content", "--no-verification-cache", "--max-problems", "0"], env);
      assert.equal(result.status, 1, result.stderr.slice(0, 500));
      assert.ok(result.size < BOUND, `${result.size} characters printed`);
      for (const rule of allRules) assert.ok(result.stdout.includes(rule), `${rule} is reported`);
      assert.match(result.stdout, /… \(\d+ more characters\)/);
      assert.match(result.stdout, printed);
    });
  }
  it(`--json: one line per file, each under ${BOUND} characters, with the file's rules`, () => {
    const result = cli(["check", "content", "--no-verification-cache", "--json"]);
    assert.equal(result.status, 1, result.stderr.slice(0, 500));
    const lines = result.stdout.trimEnd().split("\n");
    for (const line of lines) assert.ok(line.length < BOUND, `${line.slice(0, 100)}: ${line.length} characters`);
    type Problem = { rule: string; pointer: string | null };
    const problems = new Map(
      lines
        .map((line) => JSON.parse(line) as { file: string; errors: Problem[]; warnings: Problem[] })
        .map((checked) => [checked.file.split("/").pop(), [...checked.errors, ...checked.warnings]]),
    );
    for (const [name, [, expected]] of Object.entries(FILES)) {
      const rules = problems.get(name)?.map((e) => e.rule);
      for (const rule of expected) assert.ok(rules?.includes(rule), `${name}: ${rule} in ${rules}`);
    }
    const [unknownMember] = problems.get("member-name.json")!;
    assert.equal(
      unknownMember!.pointer,
      `/facets/0/requiredLiveness/${"k".repeat(200)}… (${MILLION - 200} more characters)`,
    );
  });
});

describe("evaluate --json, of files that each hold a value of a megabyte", () => {
  for (const [name, expected] of [
    ["number-range.json", (r: Receipt) => r.warnings[0]?.rule === "json/number-range"],
    ["unsafe-number.json", (r: Receipt) => r.warnings[0]?.rule === "json/unsafe-number"],
    ["duplicate-key.json", (r: Receipt) => r.warnings[0]?.rule === "json/duplicate-key"],
    ["format.json", (r: Receipt) => r.warnings.some((w) => w.rule === "schema/format")],
    ["enum.json", (r: Receipt) => r.warnings.some((w) => w.rule === "schema/enum")],
    [
      "member-name.json",
      (r: Receipt) => r.signatureCheck === "valid" && !r.warnings.some((w) => w.rule?.startsWith("schema/")),
    ],
    ["purpose.json", (r: Receipt) => r.consentStatuses[0]?.status === "purpose-mismatch"],
    ["with-many-faults.json", (r: Receipt) => r.warnings.some((w) => w.rule === "limits/problems")],
  ] as const) {
    it(`${name}: the receipt and the diagnostics, under ${BOUND} characters`, () => {
      const result = cli([
        "evaluate",
        join("content", name),
        "--json",
        "--now",
        "2026-06-01T00:00:00Z",
        "--context",
        '{"intendedPurpose":"display"}',
      ]);
      assert.ok(result.size < BOUND, `${result.size} characters printed`);
      const receipt = JSON.parse(result.stdout) as Receipt;
      assert.ok(expected(receipt), JSON.stringify(receipt).slice(0, 1000));
    });
  }
});
