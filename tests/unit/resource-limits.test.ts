/**
 * Core §6.3: an evaluator SHOULD enforce at least its defaults (1 MB, depth 10, 1,000 array
 * items) and MUST document any deviation in its conformance claim (docs/library.md).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DEFAULT_LIMITS } from "../../core/evaluate/limits.ts";
import { ROOT } from "../support/paths.ts";

test("§6.3: the default limits are the section's, or the conformance claim states each deviation", () => {
  const library = readFileSync(join(ROOT, "docs/library.md"), "utf8");
  const claim = library.slice(library.indexOf("## Conformance claim"));
  const limits = /^- \*\*Resource limits\*\*:[^\n]*(?:\n {2}[^\n]*)*/m.exec(claim)?.[0].replace(/\s+/g, " ");
  assert.ok(limits, "the conformance claim has no Resource limits entry");
  assert.equal(DEFAULT_LIMITS.maxDepth, 10);
  assert.equal(DEFAULT_LIMITS.maxArrayItems, 1000);
  if (DEFAULT_LIMITS.maxManifestBytes !== 1_000_000) {
    assert.match(limits, new RegExp(`${DEFAULT_LIMITS.maxManifestBytes.toLocaleString("en")} bytes`));
    assert.match(limits, /§6\.3 says 1 MB/);
  }
});
