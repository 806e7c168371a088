/**
 * The evaluator's inputs under mutated input (issue 37, defect 10): the evaluation context (the library's
 * `resolveContext`, which may throw only ContextError, the usage error `--context` reports), manifests of every v0.4
 * shape, and signed receipts, receipt manifests (EXT-OPT O3) that `evaluate` verifies as it verifies any manifest:
 * every fault is a receipt warning with a `um:reason:*` code. (`check`'s reading of manifests: tests/fuzz.test.ts.)
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ContextError, evaluate, receiptManifest, resolveContext } from "../../core/evaluate/index.ts";
import { WARNING_CODE } from "../../core/evaluate/receipt.ts";
import { signProfileA } from "../../scripts/crypto/profile-a.ts";
import { didKeyRef } from "../support/did.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { manifestsOfEveryShape } from "../support/manifest-shapes.ts";
import { documentText, excerpt, holds } from "../support/properties.ts";

const NOW = "2026-06-01T00:00:00Z";
const CONTEXT = {
  now: NOW,
  maxSupportedTrustTier: 1,
  verifierChallenge: "n-1",
  verifierAudience: "did:web:venue.example",
  presentedAssuranceClass: "software",
  intendedScope: ["read"],
  intendedPurpose: "urn:purpose:test",
  facets: ["profile"],
  requireActiveStatus: false,
  omitProcessedAt: true,
};
const parsedOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

describe("properties: the evaluator's inputs", () => {
  it("a context resolves, or is refused with a ContextError", async () => {
    assert.equal(resolveContext(CONTEXT).maxSupportedTrustTier, 1);
    await holds(
      "evaluation context",
      // Text, parsed in the property: fast-check reports a counterexample by stringifying it, which a value nested
      // 20,000 deep overflows.
      fc.property(documentText(CONTEXT), (text) => {
        try {
          resolveContext(parsedOrText(text));
        } catch (error) {
          if (!(error instanceof ContextError)) assert.fail(`${excerpt(text)}: ${error}`);
        }
      }),
      600,
    );
  });

  it("a signed receipt, damaged, evaluates to a receipt whose warnings carry reason codes", async () => {
    const evaluator = newKey();
    const evaluatorRef = didKeyRef(evaluator);
    const receipt = await evaluate(JSON.stringify(signed(manifestFor("urn:property:r"), newKey())), { now: NOW });
    const made = await receiptManifest(receipt, {
      evaluator: evaluatorRef.slice(0, evaluatorRef.indexOf("#")),
      now: new Date(NOW),
    });
    const signedReceipt = { ...made, signature: signProfileA(made, evaluator, evaluatorRef, new Date(NOW)) };
    assert.notEqual((await evaluate(JSON.stringify(signedReceipt), { now: NOW })).outcome, "rejected");
    await holds(
      "signed receipt",
      fc.asyncProperty(documentText(signedReceipt), async (text) => {
        const evaluated = await evaluate(text, { now: NOW });
        for (const warning of evaluated.warnings) assert.match(warning.code, WARNING_CODE, excerpt(text));
      }),
      250,
    );
  });

  it("a manifest of any shape, damaged, evaluates to a receipt whose warnings carry reason codes", async () => {
    const samples = manifestsOfEveryShape(newKey());
    const context = { now: NOW, intendedPurpose: "urn:purpose:test", verifierChallenge: "n-1" };
    await holds(
      "manifest",
      fc.asyncProperty(
        fc.constantFrom(...samples).chain((sample) => documentText(sample)),
        async (text) => {
          const evaluated = await evaluate(text, context);
          for (const warning of evaluated.warnings) assert.match(warning.code, WARNING_CODE, excerpt(text));
        },
      ),
      300,
    );
  });
});
