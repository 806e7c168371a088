/**
 * The evaluator's MUSTs of core §3.1–§3.3 that the public suite has no fixture for, each
 * named by its section: unknown members, purpose, projection, a receipt for every
 * manifest, and the receipt's fields.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { evaluate, type EvaluationContext } from "../core/evaluate/index.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { CLI } from "./support/paths.ts";
import { theProblem } from "./support/problems.ts";

const key = newKey();
const NOW = "2026-06-01T00:00:00Z";
const at = (more: EvaluationContext = {}): EvaluationContext => ({ now: NOW, omitProcessedAt: true, ...more });
const scratch = mkdtempSync(join(tmpdir(), "um-checklist-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: scratch, encoding: "utf8" });
const write = (name: string, value: unknown) => {
  writeFileSync(join(scratch, name), JSON.stringify(value));
  return name;
};
const facet = (id: string, extra: Record<string, unknown> = {}) => ({ "@id": id, "@type": "um:Facet", ...extra });
const consentFor = (facetId: string, extra: Record<string, unknown> = {}) => ({
  "@id": `urn:consent:${facetId}`,
  "@type": "um:Consent",
  facetRef: facetId,
  scope: ["read"],
  purpose: "display",
  grantedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2027-01-01T00:00:00Z",
  ...extra,
});

describe("core §3.1.1, §4.1: unknown members are ignored, never rejected", () => {
  const extra = { "ex:unknownMember": { nested: [1] } };
  const everywhere = manifestFor("urn:checklist:unknown", {
    ...extra,
    facets: [facet("urn:f:1", { ...extra, requiredLiveness: { minFreshness: "live", ...extra } })],
    consents: [consentFor("urn:f:1", extra)],
    claims: [
      {
        "@type": "ex:claim",
        issuer: "did:web:i",
        ...extra,
        holderBinding: { mode: "sd-jwt-kb", cnfThumbprint: "t", ...extra },
      },
    ],
    pointers: [{ "@type": "um:homepage", target: "https://a.example", ...extra }],
    devices: [{ "@type": "ex:device", ...extra }],
    livenessAttestation: {
      proofType: "w",
      attestedAt: NOW,
      validUntil: "2026-06-01T00:05:00Z",
      proofValue: "z",
      ...extra,
    },
  });

  it("a manifest with an unknown member in each object it holds arrives, and is judged as without them", async () => {
    const manifest = signed(everywhere, key);
    (manifest.signature as Record<string, unknown>)["ex:unknownMember"] = 1;
    const receipt = await evaluate(JSON.stringify(manifest), at());
    assert.deepEqual(
      [receipt.signatureCheck, receipt.warnings.filter((w) => w.code.startsWith("um:reason:arrive:"))],
      ["valid", []],
    );
    // The floor is still a floor: the unknown member neither breaks nor weakens it.
    assert.equal(receipt.facetStatuses[0]?.status, "assuranceInsufficient");
  });

  it("check (the publisher's gate) warns of a member the published schema closes, and exits 0", () => {
    const file = write("liveness-extra.json", signed(everywhere, key));
    const result = cli("check", file, "--now", NOW);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const problem = theProblem(result.stdout, "liveness/unknown-member");
    assert.equal(problem.severity, "warning");
  });
});
