/**
 * A did:jwk keyRef whose JWK is JSON nested 20,000 deep: no signature is needed to reach
 * its parser, so every path that resolves a keyRef is tried with one (the evaluator, the
 * client offline, `evaluate`, `check`). Each must judge the manifest, with a rule, and not
 * die of a stack overflow.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { resolve } from "../core/client/index.ts";
import { evaluate, type Receipt } from "../core/evaluate/index.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { writeFiles } from "./support/file-tree.ts";
import { manifestFor, newKey } from "./support/fixture-content.ts";
import { CLI } from "./support/paths.ts";
import { printedProblems } from "./support/problems.ts";

const NOW = "2026-06-01T00:00:00Z";
const UMID = "urn:deep:jwk";
const DEEP_JWK = `did:jwk:${Buffer.from(`{"kty":"OKP","crv":"Ed25519","x":${"[".repeat(20_000)}`).toString("base64url")}#0`;
const manifest = manifestFor(UMID);
const text = JSON.stringify({
  ...manifest,
  signature: signProfileA(manifest, newKey(), DEEP_JWK, new Date("2026-01-01T00:00:00Z")),
});
const rules = (r: Receipt) => r.warnings.map((w) => w.rule);

const scratch = mkdtempSync(join(tmpdir(), "um-deep-keyref-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("a did:jwk keyRef nested 20,000 deep", () => {
  it("evaluate(): rejected, the keyRef malformed", async () => {
    const r = await evaluate(text, { now: NOW });
    assert.deepEqual(
      [r.outcome, r.keyRefResolution, rules(r)],
      ["rejected", "unresolved", ["signature/keyref-malformed"]],
    );
  });

  it("resolve() offline: a receipt, not a throw", async () => {
    const fetch = async () => new Response(text, { headers: { "content-type": "application/ld+json" } });
    const result = await resolve("https://resolver.example", UMID, { context: { now: NOW }, offline: true, fetch });
    assert.ok("receipt" in result, JSON.stringify(result));
    assert.deepEqual([result.receipt.outcome, rules(result.receipt)], ["rejected", ["signature/keyref-malformed"]]);
  });

  it("manifest-resolver evaluate: a rejected receipt, exit 1", () => {
    const file = join(scratch, "deep.json");
    writeFileSync(file, text);
    const result = spawnSync(process.execPath, [CLI, "evaluate", file, "--now", NOW, "--json"], { encoding: "utf8" });
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(rules(JSON.parse(result.stdout) as Receipt), ["signature/keyref-malformed"]);
  });

  it("manifest-resolver check: the rule at the file, exit 1", () => {
    const root = writeFiles(join(scratch, "repo"), { "package.json": {}, "content/deep.json": JSON.parse(text) });
    const result = spawnSync(process.execPath, [CLI, "check"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, GITHUB_ACTIONS: "" },
    });
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(
      printedProblems(result.stdout)
        .filter((p) => p.severity === "error")
        .map((p) => [p.file, p.rule]),
      [["content/deep.json", "signature/keyref-malformed"]],
    );
  });
});
