/**
 * The evaluator's MUSTs of core §3.1–§3.3 that the public suite has no fixture for, each
 * named by its section: unknown members, purpose, projection, a receipt for every
 * manifest, and the receipt's fields.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { canonicalize } from "../core/crypto/jcs.ts";
import { revokedReceipt, type EvaluationContext } from "../core/evaluate/index.ts";
import { offlineEvaluate } from "./support/offline-evaluate.ts";
import { consentFor, facetOf, manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { theProblem } from "./support/problems.ts";

const key = newKey();
const NOW = "2026-06-01T00:00:00Z";
const at = (more: EvaluationContext = {}): EvaluationContext => ({ now: NOW, omitProcessedAt: true, ...more });
const scratch = mkdtempSync(join(tmpdir(), "um-checklist-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const cli = (...args: string[]) => runCliInProcess(args, scratch);
const write = (name: string, value: unknown) => {
  writeFileSync(join(scratch, name), JSON.stringify(value));
  return name;
};

describe("core §3.1.1, §4.1: unknown members are ignored, never rejected", () => {
  const extra = { "ex:unknownMember": { nested: [1] } };
  const everywhere = manifestFor("urn:checklist:unknown", {
    ...extra,
    facets: [facetOf("urn:f:1", { ...extra, requiredLiveness: { minFreshness: "live", ...extra } })],
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
    const receipt = await offlineEvaluate(JSON.stringify(manifest), at());
    assert.deepEqual(
      [receipt.signatureCheck, receipt.warnings.filter((w) => w.code.startsWith("um:reason:arrive:"))],
      ["valid", []],
    );
    // The floor is still a floor: the unknown member neither breaks nor weakens it.
    assert.equal(receipt.facetStatuses[0]?.status, "assuranceInsufficient");
  });

  it("check (the publisher's gate) warns of a member the published schema closes, and exits 0", async () => {
    const file = write("liveness-extra.json", signed(everywhere, key));
    const result = await cli("check", file, "--now", NOW);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const problem = theProblem(result.stdout, "liveness/unknown-member");
    assert.equal(problem.severity, "warning");
  });
});

const twoFacets = (umid: string) =>
  signed(
    manifestFor(umid, {
      facets: [facetOf("urn:f:profile", { name: "profile" }), facetOf("urn:f:health", { name: "health" })],
      consents: [consentFor("urn:f:profile"), consentFor("urn:f:health")],
    }),
    key,
  );

describe("core §3.1.4, §1.4.4: the intended use must fall within the consent's purpose, never unsaid", () => {
  const manifest = JSON.stringify(twoFacets("urn:checklist:purpose"));

  it("no purpose given: processed, each consent valid with a coded warning; accepted-with-warnings", async () => {
    const r = await offlineEvaluate(manifest, at());
    assert.deepEqual(
      r.facetStatuses.map((f) => f.status),
      ["processed", "processed"],
    );
    assert.deepEqual(
      r.consentStatuses.map((c) => [c.status, c.reason?.split(":").slice(0, 4).join(":")]),
      [
        ["valid", "um:reason:consent:purpose-unverified"],
        ["valid", "um:reason:consent:purpose-unverified"],
      ],
    );
    assert.deepEqual(
      r.warnings.map((w) => [w.code, w.pointer]),
      [
        ["um:reason:consent:purpose-unverified", "/consents/0/purpose"],
        ["um:reason:consent:purpose-unverified", "/consents/1/purpose"],
      ],
    );
    assert.equal(r.outcome, "accepted-with-warnings");
  });

  it("with the consent's purpose: accepted, nothing to warn of; with another: consent-denied", async () => {
    const same = await offlineEvaluate(manifest, at({ intendedPurpose: "display" }));
    assert.deepEqual([same.outcome, same.warnings, same.consentStatuses[0]?.reason], ["accepted", [], undefined]);
    const other = await offlineEvaluate(manifest, at({ intendedPurpose: "advertising" }));
    assert.deepEqual(
      [other.outcome, other.facetStatuses[0]?.status, other.consentStatuses[0]?.status],
      ["accepted-partial", "consent-denied", "purpose-mismatch"],
    );
  });

  it("evaluate --purpose sets it; --context's intendedPurpose too", async () => {
    const file = write("purpose.json", JSON.parse(manifest));
    const outcome = async (...args: string[]) =>
      JSON.parse((await cli("evaluate", file, "--offline", "--now", NOW, ...args)).stdout).outcome;
    assert.equal(await outcome(), "accepted-with-warnings");
    assert.equal(await outcome("--purpose", "display"), "accepted");
    assert.equal(await outcome("--context", '{"intendedPurpose":"display"}'), "accepted");
    assert.equal(
      await outcome("--context", '{"intendedPurpose":"display"}', "--purpose", "advertising"),
      "accepted-partial",
    );
  });
});

describe("core §3.1.3: only the facets relevant to the processing context are projected", () => {
  const manifest = JSON.stringify(twoFacets("urn:checklist:projection"));
  const context = (facets: string[]) => at({ intendedPurpose: "display", facets });

  it("a facet named (by name or @id) is processed; another is not-projected, its consent unread", async () => {
    for (const named of ["profile", "urn:f:profile"]) {
      const r = await offlineEvaluate(manifest, context([named]));
      assert.deepEqual(
        r.facetStatuses.map((f) => [f.facetId, f.status, f.reason?.split(":").slice(0, 4).join(":")]),
        [
          ["urn:f:profile", "processed", undefined],
          ["urn:f:health", "not-projected", "um:reason:projection:not-requested"],
        ],
      );
      assert.deepEqual(
        r.consentStatuses.map((c) => c.consentRef),
        ["urn:consent:urn:f:profile"],
      );
      assert.deepEqual(
        r.unprocessedEntries.map((e) => [e.kind, e.ref]),
        [["consent", "urn:consent:urn:f:health"]],
      );
      // Not asked for is not withheld: the outcome is not partial.
      assert.equal(r.outcome, "accepted");
    }
  });

  it("a facet the context names and the manifest does not hold is not-projected, not absent", async () => {
    const r = await offlineEvaluate(manifest, context(["profile", "urn:f:elsewhere"]));
    assert.deepEqual(r.facetStatuses.at(-1), {
      facetId: "urn:f:elsewhere",
      status: "not-projected",
      reason:
        "um:reason:projection:not-presented: the processing context names this facet and the manifest does not " +
        "include it, which is not evidence that it does not exist (core §3.1.3)",
    });
    assert.equal(r.outcome, "accepted");
  });

  it("evaluate --facet, repeated, names them", async () => {
    const file = write("projection.json", JSON.parse(manifest));
    const statuses = async (...args: string[]) =>
      JSON.parse(
        (await cli("evaluate", file, "--offline", "--now", NOW, "--purpose", "display", ...args)).stdout,
      ).facetStatuses.map((f: { status: string }) => f.status);
    assert.deepEqual(await statuses(), ["processed", "processed"]);
    assert.deepEqual(await statuses("--facet", "health"), ["not-projected", "processed"]);
    assert.deepEqual(await statuses("--facet", "health", "--facet", "urn:f:profile"), ["processed", "processed"]);
  });

  it("an empty list of facets is a context error", async () => {
    await assert.rejects(offlineEvaluate(manifest, { facets: [] }), /facets must be a non-empty array/);
  });
});

describe("core §3.3.1: the receipt's fields", () => {
  it("every receipt has a receiptId named by its content: the same evaluation, the same bytes", async () => {
    const manifest = JSON.stringify(twoFacets("urn:checklist:receipt-id"));
    const first = await offlineEvaluate(manifest, at());
    const again = await offlineEvaluate(manifest, at());
    assert.equal(JSON.stringify(again), JSON.stringify(first));
    const { receiptId, ...rest } = first;
    const digest = createHash("sha256").update(canonicalize(rest)).digest("base64url");
    assert.equal(receiptId, `urn:um:receipt:sha256:${digest}`);
    assert.equal(Object.keys(first)[1], "receiptId");
    // Another context, another receipt.
    assert.notEqual((await offlineEvaluate(manifest, at({ intendedPurpose: "display" }))).receiptId, receiptId);
  });

  it("a receipt rejected at Arrive, and the revoked receipt, have one too", async () => {
    for (const receipt of [await offlineEvaluate("not json", at()), await revokedReceipt("urn:checklist:gone", at())])
      assert.match(receipt.receiptId, /^urn:um:receipt:sha256:[A-Za-z0-9_-]{43}$/);
  });

  it("facetStatuses lists every facet when Verify rejects: not-projected, as none is read", async () => {
    const tampered = { ...twoFacets("urn:checklist:tampered"), subject: "did:web:mallory.example" };
    const r = await offlineEvaluate(JSON.stringify(tampered), at());
    assert.deepEqual([r.outcome, r.signatureCheck], ["rejected", "invalid"]);
    assert.deepEqual(
      r.facetStatuses.map((f) => [f.facetId, f.name, f.status, f.reason?.split(":").slice(0, 4).join(":")]),
      [
        ["urn:f:profile", "profile", "not-projected", "um:reason:projection:manifest-rejected"],
        ["urn:f:health", "health", "not-projected", "um:reason:projection:manifest-rejected"],
      ],
    );
    assert.deepEqual(r.consentStatuses, []);
  });
});

describe("core §3.3: a receipt for every manifest", () => {
  it("evaluate's umid option: a manifest for another UMID is rejected before Verify, every facet listed", async () => {
    const r = await offlineEvaluate(JSON.stringify(twoFacets("urn:checklist:served")), at(), {
      umid: "urn:checklist:asked",
    });
    assert.deepEqual(
      [r.manifestId, r.outcome, r.signatureCheck, r.facetStatuses.map((f) => f.status)],
      ["urn:checklist:served", "rejected", "not-evaluated", ["not-projected", "not-projected"]],
    );
    assert.deepEqual(
      r.warnings.map((w) => [w.code, w.rule, w.pointer]),
      [["um:reason:arrive:umid-mismatch", "resolve/umid-mismatch", "/@id"]],
    );
  });
});
